/**
 * `x-mcp-header` (2026-07-28, SEP-2243): a tool may mark parameters to be mirrored into
 * `Mcp-Param-{Name}` HTTP headers, so that intermediaries can route on them. A server that reads
 * the body must check each such header against the body (transports §Server Validation): present
 * whenever the body has the value, equal to it after Base64-sentinel decoding, and free of
 * characters no header may carry. Anything else is HeaderMismatch (-32020, HTTP 400).
 */
import { type Params } from '../../jsonrpc/index.js';
import { HeaderMismatchError } from '../errors.js';

/** `=?base64?…?=` decoded (strict: canonical Base64 of UTF-8); other values as they are; undefined when malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  const sentinel = /^=\?base64\?(.*)\?=$/s.exec(value);
  if (!sentinel) return value;
  const encoded = sentinel[1]!;
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return undefined;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64') !== encoded) return undefined;
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/** Visible ASCII, space and tab only (RFC 9110 field values). */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;

/** Every `x-mcp-header` annotation reachable through `properties` alone, with its path. */
function annotations(schema: unknown, path: string[] = []): Array<{ header: string; path: string[]; type: unknown }> {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (!properties || typeof properties !== 'object') return [];
  return Object.entries(properties as Record<string, unknown>).flatMap(([key, property]) => {
    const here = [...path, key];
    const header = (property as { 'x-mcp-header'?: unknown })?.['x-mcp-header'];
    const found = typeof header === 'string' ? [{ header, path: here, type: (property as { type?: unknown }).type }] : [];
    return [...found, ...annotations(property, here)];
  });
}

function valueAt(args: unknown, path: string[]): unknown {
  let value = args;
  for (const key of path) value = value && typeof value === 'object' ? (value as Params)[key] : undefined;
  return value;
}

/** Throws HeaderMismatchError when a tool call's `Mcp-Param-*` headers and its arguments disagree. */
export function checkParamHeaders(inputSchema: unknown, args: unknown, headers: Record<string, string | string[] | undefined>): void {
  for (const { header, path, type } of annotations(inputSchema)) {
    const name = `Mcp-Param-${header}`;
    const raw = headers[name.toLowerCase()];
    const given = Array.isArray(raw) ? raw.join(', ') : raw;
    const value = valueAt(args, path);
    if (value === undefined || value === null) {
      if (given !== undefined) throw new HeaderMismatchError(`Header mismatch: ${name} is set but the body has no value for ${path.join('.')}`);
      continue;
    }
    if (given === undefined) throw new HeaderMismatchError(`Header mismatch: ${name} is required, the body has a value for ${path.join('.')}`);
    if (!HEADER_SAFE.test(given)) throw new HeaderMismatchError(`Header mismatch: ${name} has characters a header may not carry`);
    const decoded = decodeHeaderValue(given);
    if (decoded === undefined) throw new HeaderMismatchError(`Header mismatch: ${name} is not valid Base64 of UTF-8 text`);
    const matches =
      type === 'integer' || typeof value === 'number'
        ? Number(decoded) === value && decoded.trim() !== ''
        : typeof value === 'boolean'
          ? decoded === String(value)
          : decoded === value;
    if (!matches) throw new HeaderMismatchError(`Header mismatch: ${name} header value '${given}' does not match body value '${String(value)}'`);
  }
}
