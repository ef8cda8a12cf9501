/**
 * The tools' name for the product's error codes (src/errors.ts, where they are defined once).
 */
export { ERROR_CODES as TOOL_ERROR_CODES } from '../errors.js';
