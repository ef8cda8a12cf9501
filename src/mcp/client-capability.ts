/** Server-to-client requests and the client capability each needs (client/roots, client/sampling, client/elicitation). */
export const CLIENT_CAPABILITY_FOR: Record<string, string> = {
  'roots/list': 'roots',
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
};

export class MissingClientCapabilityError extends Error {
  readonly code = 'SEXTANT_ERR_CLIENT_CAPABILITY';
  constructor(method: string, capability: string) {
    super(`The client did not declare the "${capability}" capability, so "${method}" cannot be sent to it`);
    this.name = 'MissingClientCapabilityError';
  }
}
