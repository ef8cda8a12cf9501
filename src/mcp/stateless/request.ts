/**
 * The stateless era (2026-07-28): a request is served from what it carries alone. Its `_meta`
 * names the protocol version, the client's capabilities for this request, optionally who the
 * client is and the log level it wants; the result says it is complete and who answered.
 * A message is classified once, here: stateless when its `_meta` carries a protocol version (or it
 * is `server/discover`, which exists only in this era); everything else belongs to the session
 * its `initialize` began.
 */
import { InvalidParamsError, type Params, type Result } from '../../jsonrpc/index.js';
import { UnsupportedProtocolVersionError } from '../errors.js';
import { isLogLevel, type LogLevel } from '../logging.js';
import { singleRequestEra, type RequestEra } from '../request-era.js';
import { ALL_PROTOCOL_VERSIONS, isStatelessVersion, type StatelessProtocolVersion } from '../versions.js';

/** The reserved `_meta` keys of the stateless era (basic §_meta). */
export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Methods that exist only in the stateless era: always classified stateless. */
const STATELESS_ONLY_METHODS = new Set(['server/discover']);

/** What a stateless request says about itself. */
export interface StatelessRequest {
  version: StatelessProtocolVersion;
  capabilities: Params;
  /** The two above, as the registries take them. */
  era: RequestEra;
  clientInfo?: Params;
  /** Absent: the client wants no `notifications/message` for this request. */
  logLevel?: LogLevel;
}

export function isStatelessRequest(method: string, meta: Params | undefined): boolean {
  return STATELESS_ONLY_METHODS.has(method) || (meta !== undefined && META_KEYS.protocolVersion in meta);
}

export function isObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the per-request protocol fields; a request missing a required one is malformed
 * (-32602), one of a version this server does not serve gets UnsupportedProtocolVersion (-32022).
 */
export function readStatelessRequest(meta: Params | undefined): StatelessRequest {
  const version = meta?.[META_KEYS.protocolVersion];
  if (typeof version !== 'string') {
    throw new InvalidParamsError(`Invalid params: _meta["${META_KEYS.protocolVersion}"] is required (a protocol version string)`);
  }
  if (!isStatelessVersion(version)) throw new UnsupportedProtocolVersionError(version, ALL_PROTOCOL_VERSIONS);
  const capabilities = meta![META_KEYS.clientCapabilities];
  if (!isObject(capabilities)) throw new InvalidParamsError(`Invalid params: _meta["${META_KEYS.clientCapabilities}"] is required (an object)`);
  const request: StatelessRequest = { version, capabilities, era: singleRequestEra(version, capabilities) };
  const clientInfo = meta![META_KEYS.clientInfo];
  if (clientInfo !== undefined) {
    if (!isObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
      throw new InvalidParamsError(`Invalid params: _meta["${META_KEYS.clientInfo}"] needs string "name" and "version"`);
    }
    request.clientInfo = clientInfo;
  }
  const logLevel = meta![META_KEYS.logLevel];
  if (logLevel !== undefined) {
    if (!isLogLevel(logLevel)) throw new InvalidParamsError(`Invalid params: _meta["${META_KEYS.logLevel}"] is not a log level`);
    request.logLevel = logLevel;
  }
  return request;
}

/** Caching hints (server/utilities/caching): how long a result stays fresh, and who may share it. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/**
 * Lists and discovery are the same for every client for the life of the process: an hour, and
 * any cache may share them. A resource's contents may change at any time: stale at once, and kept
 * to the caller's own cache.
 */
export const CACHE_STATIC: CacheHint = { ttlMs: 60 * 60_000, cacheScope: 'public' };
export const CACHE_VOLATILE: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/** A stateless `complete` result: `resultType`, the server's identity in `_meta`, and caching hints where the method has them. */
export function completeResult(result: Result, serverInfo: Params, cache?: CacheHint): Result {
  const meta = isObject(result._meta) ? result._meta : {};
  // An interim input_required result (or a task handle) is never cacheable and keeps its type (caching §Cacheable Results).
  if (result.resultType === 'input_required' || result.resultType === 'task') return { ...result, _meta: { ...meta, [META_KEYS.serverInfo]: serverInfo } };
  return { ...result, ...(cache ?? {}), resultType: 'complete', _meta: { ...meta, [META_KEYS.serverInfo]: serverInfo } };
}
