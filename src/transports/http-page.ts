/**
 * The web page over HTTP (src/web): its document at `/`, `/status` and `/file/…` (the page draws
 * the route), and its built files under `/assets/`. None of it holds data, so none of it needs a
 * credential; the page's MCP calls do. Host and Origin are checked as for every route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGE_HEADERS, SHELL, webAsset } from '../web/index.js';
import { httpErrors } from './http-errors.js';

const ASSETS = '/assets/';

/** Whether `path` is one of the page's. */
export function isPagePath(path: string): boolean {
  return path === '/' || path === '/status' || path.startsWith('/file/') || path.startsWith(ASSETS);
}

/** Answers a request for one of the page's paths. */
export function servePage(path: string, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw httpErrors.methodNotAllowed(req.method ?? '?', ['GET']);
  if (path.startsWith(ASSETS)) {
    const asset = webAsset(path.slice(ASSETS.length));
    if (!asset) throw httpErrors.notFound(path);
    res.writeHead(200, { ...PAGE_HEADERS, 'content-type': asset.type, 'content-length': asset.body.length, 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
    return;
  }
  const body = Buffer.from(SHELL, 'utf8');
  res.writeHead(200, { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
