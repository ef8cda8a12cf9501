/**
 * Validates what the server sends against the official MCP schema of the negotiated revision
 * (spec-fixtures/schema/<revision>/schema.json): the JSON-RPC envelope, and for results the
 * result type of the method that was asked.
 *
 * "Strict" mode also refuses properties a revision does not define (the official schemas leave
 * most objects open), so that a field from a newer revision leaking into an older session fails.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The handshake revisions (a session begins with `initialize`). */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
/** Every revision with a schema here, the per-request 2026-07-28 included. */
export const ALL_REVISIONS = [...REVISIONS, '2026-07-28'] as const;
export type Revision = (typeof ALL_REVISIONS)[number];
/** The newest handshake revision: what an id-less error or an unnegotiated session is checked against. */
const LATEST: Revision = '2025-11-25';
const MODERN: Revision = '2026-07-28';
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

const RESULT_TYPES: Record<string, string> = {
  'server/discover': 'DiscoverResult',
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
};

type Json = Record<string, unknown>;

/** Closes every object schema that lists its properties, except where the schema opens it on purpose. */
function closeObjects(node: unknown, key = ''): void {
  if (Array.isArray(node)) return node.forEach((item) => closeObjects(item));
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Json;
  // Free-form containers by design: JSON Schemas of tools, _meta, experimental capabilities, arguments.
  // 2026-07-28 gives _meta its own definitions (MetaObject, ResultMetaObject…): open as _meta is.
  const open =
    ['inputSchema', 'outputSchema', 'properties', '_meta', 'experimental', 'structuredContent', 'arguments'].includes(key) || key.endsWith('MetaObject');
  for (const [childKey, child] of Object.entries(schema)) closeObjects(child, childKey);
  if (!open && schema.type === 'object' && schema.properties && !('additionalProperties' in schema)) {
    schema.additionalProperties = false;
  }
}

class RevisionSchema {
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #ajv: Ajv;
  readonly #defsKey: string;

  constructor(revision: Revision, strict: boolean) {
    const schema = JSON.parse(readFileSync(new URL(`../../../spec-fixtures/schema/${revision}/schema.json`, import.meta.url), 'utf8')) as Json;
    this.#defsKey = '$defs' in schema ? '$defs' : 'definitions';
    if (strict) {
      const defs = schema[this.#defsKey] as Record<string, Json>;
      for (const [name, def] of Object.entries(defs)) {
        // Result and its open relatives accept any extra key by definition; leave the JSON-RPC envelopes alone too.
        if (['Result', 'EmptyResult', 'JSONRPCResponse', 'JSONRPCResultResponse'].includes(name)) continue;
        closeObjects(def, name);
      }
    }
    delete schema.$schema;
    const options = { strict: false, allErrors: true, validateFormats: false };
    this.#ajv = revision >= '2025-11-25' ? new Ajv2020(options) : new Ajv(options);
    this.#ajv.addSchema(schema, revision);
  }

  validator(definition: string, revision: string): ValidateFunction {
    let validate = this.#validators.get(definition);
    if (!validate) {
      validate = this.#ajv.getSchema(`${revision}#/${this.#defsKey}/${definition}`);
      if (!validate) throw new Error(`No definition ${definition} in the ${revision} schema`);
      this.#validators.set(definition, validate);
    }
    return validate;
  }
}

const cache = new Map<string, RevisionSchema>();
function schemaOf(revision: Revision, strict: boolean): RevisionSchema {
  const key = `${revision}:${strict}`;
  let schema = cache.get(key);
  if (!schema) cache.set(key, (schema = new RevisionSchema(revision, strict)));
  return schema;
}

function check(revision: Revision, definition: string, value: unknown, strict: boolean): string[] {
  const validate = schemaOf(revision, strict).validator(definition, revision);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 5).map((e) => `${revision} ${definition}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/**
 * Checks one outgoing message. `methodOf` tells which method a response answers (by id).
 * Returns the problems found; an empty list means valid.
 */
export function checkOutgoing(message: unknown, revision: Revision | undefined, methodOf: (id: unknown) => string | undefined): string[] {
  const rev = revision ?? LATEST;
  if (Array.isArray(message)) {
    if (rev !== '2025-03-26') return [`batch response sent in a ${rev} session`];
    // Members without an id get the id-less exception below; the batch envelope is checked for the rest.
    const withIds = message.filter((m) => typeof m === 'object' && m !== null && 'id' in m);
    return [...check(rev, 'JSONRPCBatchResponse', withIds, false), ...message.flatMap((m) => checkOutgoing(m, rev, methodOf))];
  }
  const msg = message as Json;
  if ('error' in msg) {
    // An error about a message whose id could not be read carries no id. Only 2025-11-25 says so
    // in its schema; earlier schemas demand an id and forbid null, so no answer fits them better.
    if (!('id' in msg)) return check(rev === MODERN ? MODERN : LATEST, 'JSONRPCErrorResponse', msg, true);
    return check(rev, rev >= LATEST ? 'JSONRPCErrorResponse' : 'JSONRPCError', msg, true);
  }
  if ('result' in msg) {
    const envelope = check(rev, 'JSONRPCResponse', msg, false);
    const method = methodOf(msg.id);
    const interim = (msg.result as Json | undefined)?.resultType === 'input_required';
    const type = method === undefined ? undefined : interim ? 'InputRequiredResult' : RESULT_TYPES[method];
    if (!type) return [...envelope, `response to an unknown request ${JSON.stringify(msg.id)} (${String(method)})`];
    return [...envelope, ...check(rev, type, msg.result, true)];
  }
  // Before 2025-11-25 the typed requests and notifications leave the envelope (jsonrpc, id) to JSONRPC*.
  const { jsonrpc: _jsonrpc, id: _id, ...body } = msg;
  const typed = rev >= LATEST ? msg : body;
  if ('id' in msg) return [...check(rev, 'JSONRPCRequest', msg, false), ...check(rev, 'ServerRequest', typed, true)];
  return [...check(rev, 'JSONRPCNotification', msg, false), ...check(rev, 'ServerNotification', typed, true)];
}

/**
 * Follows one session's traffic: learns ids and the negotiated revision from what the client
 * sends and the server answers, and collects every schema problem in what the server sends.
 */
export class TrafficChecker {
  readonly problems: string[] = [];
  readonly #methods = new Map<unknown, string>();
  /** Requests of the modern era (2026-07-28 in their `_meta`) still waiting for their answer. */
  readonly #modern = new Set<unknown>();
  #revision: Revision | undefined;
  checked = 0;
  /** Messages checked against the 2026-07-28 schema (answers to modern requests, their notifications). */
  modernChecked = 0;

  get revision(): Revision | undefined {
    return this.#revision;
  }

  incoming(message: unknown): void {
    for (const item of Array.isArray(message) ? message : [message]) {
      const msg = item as Json;
      if (!msg || typeof msg !== 'object' || typeof msg.method !== 'string' || !('id' in msg)) continue;
      this.#methods.set(msg.id, msg.method);
      const meta = ((msg.params as Json | undefined)?._meta ?? {}) as Json;
      if (PROTOCOL_VERSION_META in meta || msg.method === 'server/discover') this.#modern.add(msg.id);
    }
  }

  /** The revision a message is checked against: its request's when that was modern, else the session's. */
  #revisionFor(message: unknown): Revision | undefined {
    const msg = message as Json;
    if (Array.isArray(message) || !msg || typeof msg !== 'object') return this.#revision;
    if ('id' in msg && !('method' in msg)) return this.#modern.has(msg.id) ? MODERN : this.#revision;
    // A notification: modern when only modern requests are waiting (and no session was begun).
    return this.#revision === undefined && this.#modern.size > 0 ? MODERN : this.#revision;
  }

  outgoing(message: unknown): void {
    this.checked++;
    const revision = this.#revisionFor(message);
    if (revision === MODERN) this.modernChecked++;
    const problems = checkOutgoing(message, revision, (id) => this.#methods.get(id));
    const answered = message as Json;
    if (!Array.isArray(message) && answered && 'id' in answered && !('method' in answered)) this.#modern.delete(answered.id);
    for (const problem of problems) this.problems.push(`${problem} in ${JSON.stringify(message).slice(0, 300)}`);
    const msg = message as Json;
    if (!Array.isArray(message) && this.#methods.get(msg.id) === 'initialize' && msg.result) {
      this.#revision = (msg.result as Json).protocolVersion as Revision;
    }
  }
}

/** Checks a whole exchange at once: what the client sent (for ids and methods), then what came back. */
export function schemaProblems(clientSent: unknown[], serverSent: unknown[]): string[] {
  const checker = new TrafficChecker();
  for (const message of clientSent) checker.incoming(message);
  for (const message of serverSent) checker.outgoing(message);
  return checker.problems;
}
