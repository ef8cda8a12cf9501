/**
 * Multi round-trip requests (2026-07-28): a handler that needs something only the client has
 * (its roots, a sampled message, the user's answer) returns `InputRequired` instead of waiting on
 * a server-to-client request. The answer goes out as an `input_required` result with the input
 * requests and the sealed state; the client retries the same request with `inputResponses` and the
 * state, and the handler runs again from scratch with them in hand. Nothing is kept in between.
 */
import { type InvalidParamsError, type Params, type Result } from '../jsonrpc/index.js';
import { MissingRequiredClientCapabilityError } from './errors.js';
import type { RequestStateSealer } from './request-state.js';

/** A request the server needs the client to answer (one of elicitation/create, sampling/createMessage, roots/list). */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: Params;
}

/** The client capability each input request needs (mrtr §Server Requirements: never ask what was not declared). */
const CAPABILITY_OF: Record<InputRequest['method'], string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Returned by a handler that cannot finish without the client's input. */
export class InputRequired {
  readonly inputRequests: Record<string, InputRequest> | undefined;
  /** What the next round needs to know; sealed into `requestState`. */
  readonly state: unknown;

  constructor(inputRequests: Record<string, InputRequest> | undefined, state?: unknown) {
    if (!inputRequests && state === undefined) throw new TypeError('InputRequired needs input requests or state (mrtr: at least one)');
    this.inputRequests = inputRequests;
    this.state = state;
  }
}

/**
 * A retry whose input response does not answer what was asked: the request is malformed, and
 * `error` (-32602) is its answer. Thrown through the tool as InputRequired is, and like it not an
 * Error, so that nothing on the way (a roots lookup falling back when the client fails) takes it
 * for a failure of its own; the tool registry throws `error`.
 */
export class MalformedInput {
  readonly error: InvalidParamsError;
  constructor(error: InvalidParamsError) {
    this.error = error;
  }
}

/** What a retry brought back: the client's answers by key, and the verified state of the previous round. */
export interface RoundInput {
  responses: Record<string, unknown>;
  /** Undefined on a first round (or a retry without state). */
  state: unknown;
}

/** Reads a retry's `inputResponses` and opens its `requestState` (refused with -32602 when it does not verify). */
export async function roundInput(sealer: RequestStateSealer, method: string, params: Params, principal: string | undefined): Promise<RoundInput> {
  const raw = params.inputResponses;
  const responses = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const state = params.requestState === undefined ? undefined : await sealer.open(params.requestState, method, params, principal);
  return { responses, state };
}

/**
 * The wire form of `InputRequired`: every input request must be one the client declared it can
 * answer (-32021 otherwise, naming what is missing), and the state is sealed to this request.
 */
export function inputRequiredResult(
  required: InputRequired,
  context: { sealer: RequestStateSealer; method: string; params: Params; capabilities: Params; principal: string | undefined },
): Result {
  const missing: Record<string, Params> = {};
  for (const request of Object.values(required.inputRequests ?? {})) {
    const capability = CAPABILITY_OF[request.method];
    const declared = context.capabilities[capability];
    if (typeof declared !== 'object' || declared === null) missing[capability] = {};
  }
  if (Object.keys(missing).length > 0) throw new MissingRequiredClientCapabilityError(missing);
  const result: Result = { resultType: 'input_required' };
  if (required.inputRequests) result.inputRequests = required.inputRequests;
  if (required.state !== undefined) result.requestState = context.sealer.seal(context.method, context.params, required.state, context.principal);
  return result;
}
