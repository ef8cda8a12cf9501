/**
 * The web page over HTTP (src/web): its document at `/`, `/status`, `/file/…` and `/signed-in`
 * (the page draws the route), its built files under `/assets/`, and `/page-config.json`, which
 * says how to sign in. None of it holds data, so none of it needs a credential; the page's MCP
 * calls do. Host and Origin are checked as for every route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGE_HEADERS, pageHeaders, SHELL, webAsset } from '../web/index.js';
import { httpErrors } from './http-errors.js';

const ASSETS = '/assets/';
const CONFIG = '/page-config.json';
/** Where the issuer sends the browser back to, with its code (the web client's redirect URI). */
const SIGNED_IN_PATH = '/signed-in';

/** Whether `path` is one of the page's. */
export function isPagePath(path: string): boolean {
  return path === '/' || path === '/status' || path === SIGNED_IN_PATH || path === CONFIG || path.startsWith('/file/') || path.startsWith(ASSETS);
}

/**
 * How the page signs in through the team's authorization server (`--oauth-issuer` with
 * `--web-client-id`): the authorization code flow with PKCE, as a public client.
 */
export interface PageSignIn {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  /** The resource (RFC 8707) the token is for: this server's /mcp. */
  resource: string;
  scope: string;
}

/** Answers a request for one of the page's paths; `signIn` says how it signs in through an issuer, if it does. */
export async function servePage(path: string, req: IncomingMessage, res: ServerResponse, signIn?: () => Promise<PageSignIn | undefined>): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET']);
  if (path.startsWith(ASSETS)) {
    const asset = webAsset(path.slice(ASSETS.length));
    if (!asset) throw httpErrors.notFound(path);
    res.writeHead(200, { ...PAGE_HEADERS, 'content-type': asset.type, 'content-length': asset.body.length, 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
    return;
  }
  const known = await signIn?.();
  if (path === CONFIG) {
    const config = Buffer.from(
      JSON.stringify(
        known
          ? {
              sign_in: {
                issuer: known.issuer,
                authorization_endpoint: known.authorizationEndpoint,
                token_endpoint: known.tokenEndpoint,
                client_id: known.clientId,
                resource: known.resource,
                scope: known.scope,
                redirect_path: SIGNED_IN_PATH,
              },
            }
          : {},
      ),
    );
    res.writeHead(200, { ...PAGE_HEADERS, 'content-type': 'application/json', 'content-length': config.length, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : config);
    return;
  }
  // The document may reach the issuer's token endpoint (to trade its code for a token), nothing else beyond this server.
  const headers = known ? pageHeaders([new URL(known.tokenEndpoint).origin]) : PAGE_HEADERS;
  const document = Buffer.from(SHELL, 'utf8');
  res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-length': document.length, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : document);
}
