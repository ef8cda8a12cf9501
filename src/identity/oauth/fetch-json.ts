/**
 * A JSON document from the authorization server: bounded in time and size, with a status and a
 * content that are checked, so that a slow or hostile issuer cannot hold or flood the server.
 */

/** Time allowed for one discovery or key fetch. */
const FETCH_TIMEOUT_MS = 5_000;
/** Largest document read (metadata and key sets are a few KB). */
const MAX_DOCUMENT_BYTES = 1_000_000;

export class IssuerError extends Error {
  readonly code = 'oauth_issuer';
  constructor(message: string) {
    super(message);
    this.name = 'IssuerError';
  }
}

/** `http:` only on loopback (a development issuer); anything else must be `https:`. */
export function checkIssuerUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new IssuerError(`${what} ${JSON.stringify(value)} is not a URL`);
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new IssuerError(`${what} ${JSON.stringify(value)} must be https (plain http only on loopback)`);
  }
  if (url.username || url.password) throw new IssuerError(`${what} must not carry credentials`);
  return url;
}

export async function fetchJson(url: URL): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw new IssuerError(`${url.href} did not answer (${(error as Error).message})`);
  }
  if (!response.ok) throw new IssuerError(`${url.href} answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_DOCUMENT_BYTES) throw new IssuerError(`${url.href} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  const text = await response.text();
  if (text.length > MAX_DOCUMENT_BYTES) throw new IssuerError(`${url.href} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // below
  }
  throw new IssuerError(`${url.href} is not a JSON object`);
}
