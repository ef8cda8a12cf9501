/** Server-to-client requests and the client capability each needs (client/roots, client/sampling, client/elicitation). */
export const CLIENT_CAPABILITY_FOR: Record<string, string> = {
  'roots/list': 'roots',
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
};

/**
 * Local, never on the wire: the server itself wanted to ask the client something the client did
 * not declare it can answer (the tool then says so in its result). Not to be confused with
 * MissingRequiredClientCapabilityError (mcp/errors.ts), the -32021 a 2026-07-28 request gets when
 * it lacks a capability the server needs.
 */
export class UndeclaredClientCapabilityError extends Error {
  readonly code = 'SEXTANT_ERR_CLIENT_CAPABILITY';
  constructor(method: string, capability: string) {
    super(`The client did not declare the "${capability}" capability, so "${method}" cannot be sent to it`);
    this.name = 'UndeclaredClientCapabilityError';
  }
}
