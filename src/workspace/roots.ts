/**
 * The client's roots (client/roots): asked for only when the client declared the capability,
 * time-bounded, each `file://` URI percent-decoded into a local directory. Unusable roots are
 * skipped, never fatal: the detection chain falls through to its next source.
 */
import { realpathSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../platform/log.js';

/** How long the client gets to answer roots/list before the request is cancelled. */
export const DEFAULT_ROOTS_TIMEOUT_MS = 5_000;

/** A usable root, or why not; `lastPart`: for a root that is not on this machine, its folder's name. */
type RootPath = { path: string } | { skipped: string; lastPart?: string };

/** The last non-empty component of a file URI's path, percent-decoded ("web" for file:///C:/src/web/). */
function lastPart(url: URL): string | undefined {
  const part = url.pathname.split('/').filter(Boolean).at(-1);
  try {
    return part === undefined ? undefined : decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** A root URI as a real local directory, or why it cannot be one. */
function pathFromRootUri(uri: unknown): RootPath {
  if (typeof uri !== 'string') return { skipped: 'the uri is not a string' };
  if (!/^file:\/\//i.test(uri)) return { skipped: 'not a file:// URI' };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { skipped: 'not a valid URI' };
  }
  if (url.host !== '' && url.host !== 'localhost')
    return { skipped: `a file URI on host "${url.host}" (relative or remote), not a local absolute path`, lastPart: lastPart(url) };
  if (/^\/[A-Za-z](:|%3A)/i.test(url.pathname)) return { skipped: 'Windows file: URIs are not supported yet', lastPart: lastPart(url) };
  let path: string;
  try {
    path = fileURLToPath(url); // percent-decodes: file:///my%20project -> /my project
  } catch (error) {
    return { skipped: error instanceof Error ? error.message : 'undecodable path' };
  }
  try {
    const real = realpathSync(path);
    if (!statSync(real).isDirectory()) return { skipped: `${path} is not a directory`, lastPart: lastPart(url) };
    return { path: real };
  } catch {
    return { skipped: `${path} does not exist`, lastPart: lastPart(url) };
  }
}

export type RootsOutcome =
  /**
   * The client answered; `paths` are its usable roots in its order (maybe none), and `elsewhere`
   * the last path component of each root that is not on this machine (a remote client's), which
   * may name a project registered by name.
   */
  | { status: 'listed'; paths: string[]; elsewhere: string[] }
  /** Roots could not be had: no capability, an error reply, a timeout. */
  | { status: 'unavailable'; reason: string };

export interface RootsClient {
  readonly clientCapabilities: Record<string, unknown>;
  requestClient(method: string, params?: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<Record<string, unknown>>;
}

/** Asks for the roots once; on timeout the engine sends notifications/cancelled for the request. */
export async function listRoots(client: RootsClient, options: { timeoutMs?: number; logger?: Logger } = {}): Promise<RootsOutcome> {
  const capability = client.clientCapabilities.roots;
  if (typeof capability !== 'object' || capability === null) return { status: 'unavailable', reason: 'the client did not declare the roots capability' };
  let result: Record<string, unknown>;
  try {
    result = await client.requestClient('roots/list', undefined, { timeoutMs: options.timeoutMs ?? DEFAULT_ROOTS_TIMEOUT_MS });
  } catch (error) {
    // Only a failure means the roots are unavailable. Anything else thrown is the caller's own
    // control signal (a 2026-07-28 call stopping to ask its client for input), passed on.
    if (!(error instanceof Error)) throw error;
    const reason = `roots/list failed: ${error instanceof Error ? error.message : String(error)}`;
    options.logger?.info(reason);
    return { status: 'unavailable', reason };
  }
  const roots = Array.isArray(result.roots) ? (result.roots as unknown[]) : [];
  const paths: string[] = [];
  const elsewhere: string[] = [];
  for (const root of roots) {
    const uri = typeof root === 'object' && root !== null ? (root as { uri?: unknown }).uri : undefined;
    const checked = pathFromRootUri(uri);
    if ('path' in checked) paths.push(checked.path);
    else if (checked.lastPart !== undefined) elsewhere.push(checked.lastPart);
    if ('path' in checked) continue;
    else if (checked.skipped.startsWith('Windows')) options.logger?.info(`Root ${String(uri)} skipped: ${checked.skipped}`);
    else options.logger?.debug(`Root ${String(uri)} skipped: ${checked.skipped}`);
  }
  return { status: 'listed', paths, elsewhere };
}
