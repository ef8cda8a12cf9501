/**
 * The conformance profile's multi round-trip tools and prompt (2026-07-28, SEP-2322), named and
 * shaped as the official suite's input-required-result scenarios describe them. Each runs from
 * scratch on every round: what it asked is keyed in `inputResponses`, what it must remember is in
 * the sealed `requestState`. Listed only to stateless requests.
 */
import {
  type InputRequest,
  InputRequired,
  type JsonObject,
  type PromptDefinition,
  type ResourceDefinition,
  type RoundInput,
  type ToolDefinition,
  type ToolOutput,
} from '../mcp/index.js';

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };

function ask(message: string, properties: JsonObject, required: string[]): InputRequest {
  return { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required } } };
}

function sample(text: string, maxTokens: number): InputRequest {
  return { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens } };
}

const ROOTS: InputRequest = { method: 'roots/list', params: {} };

/** The accepted content of an elicitation answer, the text of a sampling answer, the URIs of a roots answer. */
function accepted(response: unknown): Record<string, unknown> | undefined {
  const answer = response as { action?: unknown; content?: unknown } | undefined;
  return answer?.action === 'accept' && typeof answer.content === 'object' && answer.content !== null ? (answer.content as Record<string, unknown>) : undefined;
}

function sampledText(response: unknown): string | undefined {
  const content = (response as { content?: { type?: unknown; text?: unknown } } | undefined)?.content;
  return content?.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
}

function rootUris(response: unknown): string[] | undefined {
  const roots = (response as { roots?: unknown } | undefined)?.roots;
  return Array.isArray(roots) ? roots.map((root) => String((root as { uri?: unknown }).uri)) : undefined;
}

const text = (value: string): ToolOutput => ({ content: [{ type: 'text', text: value }] });

/** The round's input; a tool of this file is only ever called by a stateless request, which always has it. */
function inputOf(input: RoundInput | undefined): RoundInput {
  return input ?? { responses: {}, state: undefined };
}

function mrtrTool(
  name: string,
  description: string,
  run: (input: RoundInput, capabilities: Record<string, unknown>) => ToolOutput | InputRequired,
): ToolDefinition {
  return {
    name,
    description,
    inputSchema: NO_ARGUMENTS,
    since: '2026-07-28',
    run: (_args, context) => run(inputOf(context.input), context.era.clientCapabilities),
  };
}

export function conformanceMrtrTools(): ToolDefinition[] {
  return [
    mrtrTool('test_input_required_result_elicitation', 'Asks the user for a name (elicitation), then greets them.', ({ responses }) => {
      const name = accepted(responses.user_name)?.name;
      if (typeof name !== 'string') return new InputRequired({ user_name: ask('What is your name?', { name: { type: 'string' } }, ['name']) });
      return text(`Hello, ${name}!`);
    }),
    // server-stateless: the response stream of a request carries no server-to-client request, only the interim result.
    mrtrTool('test_streaming_elicitation', 'Asks the user for a name through an input_required result, never a request on the stream.', ({ responses }) => {
      const name = accepted(responses.user_name)?.name;
      if (typeof name !== 'string') return new InputRequired({ user_name: ask('What is your name?', { name: { type: 'string' } }, ['name']) });
      return text(`Hello, ${name}!`);
    }),
    mrtrTool('test_input_required_result_sampling', 'Asks the client to sample an answer to a question, then returns it.', ({ responses }) => {
      const answer = sampledText(responses.capital_question);
      if (answer === undefined) return new InputRequired({ capital_question: sample('What is the capital of France?', 100) });
      return text(`The model answered: ${answer}`);
    }),
    mrtrTool('test_input_required_result_list_roots', 'Asks the client for its roots, then lists them.', ({ responses }) => {
      const roots = rootUris(responses.client_roots);
      if (!roots) return new InputRequired({ client_roots: ROOTS });
      return text(`Client roots: ${roots.join(', ') || '(none)'}`);
    }),
    mrtrTool('test_input_required_result_request_state', 'Asks for a confirmation and keeps its round in a sealed requestState.', ({ responses, state }) => {
      const confirmed = accepted(responses.confirm);
      if (!confirmed || (state as { round?: unknown } | undefined)?.round !== 1) {
        return new InputRequired({ confirm: ask('Please confirm', { ok: { type: 'boolean' } }, ['ok']) }, { round: 1 });
      }
      return text(`state-ok: confirmed ${String(confirmed.ok)}`);
    }),
    mrtrTool('test_input_required_result_multiple_inputs', 'Asks for a name, a sampled greeting and the roots at once.', ({ responses, state }) => {
      const wanted: Record<string, InputRequest> = {};
      const name = accepted(responses.user_name)?.name;
      const greeting = sampledText(responses.greeting);
      const roots = rootUris(responses.client_roots);
      if (typeof name !== 'string') wanted.user_name = ask('What is your name?', { name: { type: 'string' } }, ['name']);
      if (greeting === undefined) wanted.greeting = sample('Generate a greeting', 50);
      if (!roots) wanted.client_roots = ROOTS;
      // Asked again for whatever is still missing (mrtr §Error Handling), with the state of the first round.
      if (Object.keys(wanted).length > 0 || state === undefined) return new InputRequired(Object.keys(wanted).length > 0 ? wanted : undefined, { round: 1 });
      return text(`${greeting} ${name}; roots: ${roots!.join(', ')}`);
    }),
    mrtrTool('test_input_required_result_multi_round', 'Asks for a name, then (a second round) a favourite colour.', ({ responses, state }) => {
      const step = (state as { step?: unknown; name?: unknown } | undefined) ?? {};
      if (step.step === 2) {
        const color = accepted(responses.step2)?.color;
        if (typeof color === 'string') return text(`${String(step.name)} likes ${color}`);
        return new InputRequired({ step2: ask('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']) }, step);
      }
      const name = accepted(responses.step1)?.name;
      if (step.step === 1 && typeof name === 'string') {
        return new InputRequired({ step2: ask('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']) }, { step: 2, name });
      }
      return new InputRequired({ step1: ask('Step 1: What is your name?', { name: { type: 'string' } }, ['name']) }, { step: 1 });
    }),
    mrtrTool(
      'test_input_required_result_tampered_state',
      'Keeps an integrity-protected requestState: a tampered one is refused with -32602.',
      ({ responses, state }) => {
        if (!accepted(responses.confirm) || (state as { round?: unknown } | undefined)?.round !== 1) {
          return new InputRequired({ confirm: ask('Please confirm', { ok: { type: 'boolean' } }, ['ok']) }, { round: 1 });
        }
        return text('state-ok');
      },
    ),
    mrtrTool('test_input_required_result_capabilities', 'Asks only for the input the request said the client can give.', ({ responses }, capabilities) => {
      const declared = (name: string): boolean => typeof capabilities[name] === 'object' && capabilities[name] !== null;
      const wanted: Record<string, InputRequest> = {};
      if (declared('sampling') && sampledText(responses.capital_question) === undefined)
        wanted.capital_question = sample('What is the capital of France?', 100);
      if (declared('elicitation') && !accepted(responses.user_name)) wanted.user_name = ask('What is your name?', { name: { type: 'string' } }, ['name']);
      if (declared('roots') && !rootUris(responses.client_roots)) wanted.client_roots = ROOTS;
      if (Object.keys(wanted).length > 0) return new InputRequired(wanted);
      return text(`Everything the client could give was given (${Object.keys(responses).join(', ') || 'nothing was asked'})`);
    }),
  ];
}

export const CONFORMANCE_MRTR_RESOURCE: ResourceDefinition = {
  uri: 'test://with-input',
  name: 'with-input',
  description: 'A resource that asks the user (elicitation) which greeting to show before it can be read.',
  mimeType: 'text/plain',
  since: '2026-07-28',
  read(input) {
    const greeting = accepted(input?.responses.greeting)?.greeting;
    if (typeof greeting !== 'string')
      return new InputRequired({ greeting: ask('Which greeting should the resource show?', { greeting: { type: 'string' } }, ['greeting']) });
    return [{ uri: 'test://with-input', mimeType: 'text/plain', text: greeting }];
  },
};

export const CONFORMANCE_MRTR_PROMPT: PromptDefinition = {
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks the user (elicitation) what context it should use.',
  since: '2026-07-28',
  get(_args, input) {
    const context = accepted(input?.responses.user_context)?.context;
    if (typeof context !== 'string') {
      return new InputRequired({ user_context: ask('What context should the prompt use?', { context: { type: 'string' } }, ['context']) });
    }
    return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }] };
  },
};
