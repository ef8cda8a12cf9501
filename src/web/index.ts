/**
 * The web page for the people beside the agents: its document and its built files, and the
 * headers they go out with. The page itself (page/) runs in the browser and speaks MCP to /mcp.
 */
export { webAsset } from './assets.js';
export { PAGE_HEADERS, pageHeaders, SHELL } from './shell.js';
