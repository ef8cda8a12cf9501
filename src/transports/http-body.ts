/** Reads a request body as JSON under a byte limit: 413 past it, 400 for what is not UTF-8 JSON. */
import type { IncomingMessage } from 'node:http';
import { httpErrors } from './http-errors.js';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume(); // drain, so the connection can carry the 413
    throw httpErrors.tooLarge(limit);
  }
  // Event-based rather than for-await: leaving a for-await loop early destroys the request,
  // and with it the socket the 413 must go out on.
  const chunks: Buffer[] = [];
  const size = await new Promise<number>((resolve, reject) => {
    let total = 0;
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > limit) {
        req.off('data', onData);
        req.resume();
        reject(httpErrors.tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    // A request cut off before its end (a timeout, a client that went away): no body to answer.
    // Let go of at the end: every request closes, and an error made for nothing costs its stack.
    const onClose = (): void => reject(httpErrors.badRequest('Bad request: the body ended early'));
    req.on('data', onData);
    req.once('end', () => {
      req.off('close', onClose);
      resolve(total);
    });
    req.once('error', reject);
    req.once('close', onClose);
  });
  let text: string;
  try {
    text = UTF8.decode(Buffer.concat(chunks, size));
  } catch {
    throw httpErrors.parse('Parse error: body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw httpErrors.parse(`Parse error: body is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
