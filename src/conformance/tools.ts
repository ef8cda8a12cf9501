/**
 * Reference fixtures named by the official conformance suite (@modelcontextprotocol/conformance),
 * served only with `--profile conformance`. They exercise the engine (progress, logging,
 * cancellation, error results); they are not code-intelligence tools.
 */
import { MissingRequiredClientCapabilityError, type ToolDefinition } from '../mcp/index.js';
import { CodedError } from '../errors.js';
import { SILENT_WAV_BASE64, TINY_PNG_BASE64 } from './fixtures.js';

/** Pause between progress steps: long enough for a client to cancel mid-call. */
const PROGRESS_STEP_MS = 100;

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A no-argument tool that asks the client to elicit `requestedSchema` and reports the answer. */
function elicitationTool(name: string, description: string, message: string, properties: Record<string, unknown>): ToolDefinition {
  return {
    name,
    description,
    inputSchema: NO_ARGUMENTS,
    async run(_args, context) {
      const result = await context.request('elicitation/create', { message, requestedSchema: { type: 'object', properties } });
      return { content: [{ type: 'text', text: `Elicitation completed: ${JSON.stringify(result)}` }] };
    },
  };
}

export function conformanceTools(): ToolDefinition[] {
  return [
    {
      name: 'test_simple_text',
      description: 'Returns a fixed text block.',
      inputSchema: NO_ARGUMENTS,
      run: () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }),
    },
    {
      name: 'test_error_handling',
      description: 'Always fails, as a tool execution error (isError: true).',
      inputSchema: NO_ARGUMENTS,
      run: () => {
        throw new CodedError('This tool intentionally returns an error for testing');
      },
    },
    {
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100, pausing after each step.',
      inputSchema: NO_ARGUMENTS,
      async run(_args, context) {
        for (const step of [0, 50, 100]) {
          context.progress(step, 100, `Completed step ${step / 50 + 1} of 3`);
          // Also after the last step: the official SDK client handles notifications a microtask
          // later than responses, so a final progress that arrives together with the result is lost.
          await sleep(step < 100 ? PROGRESS_STEP_MS : PROGRESS_STEP_MS / 4, context.signal);
        }
        return { content: [{ type: 'text', text: 'Progress complete' }] };
      },
    },
    {
      name: 'test_tool_with_logging',
      description: 'Sends three log messages while it runs.',
      inputSchema: NO_ARGUMENTS,
      async run(_args, context) {
        context.log('info', 'Tool execution started');
        await sleep(10, context.signal);
        context.log('info', 'Tool processing data');
        await sleep(10, context.signal);
        context.log('info', 'Tool execution completed');
        return { content: [{ type: 'text', text: 'Logging complete' }] };
      },
    },
    {
      // The 2026-07-28 suite's name for the same tool (server-stateless: no log without a level).
      name: 'test_logging_tool',
      description: 'Sends three log messages while it runs (only to a request that set a log level).',
      inputSchema: NO_ARGUMENTS,
      since: '2026-07-28',
      async run(_args, context) {
        for (const message of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
          context.log('info', message);
          await sleep(10, context.signal);
        }
        return { content: [{ type: 'text', text: 'Logging complete' }] };
      },
    },
    {
      // 2026-07-28: a request that needs a capability its _meta did not declare gets -32021.
      name: 'test_missing_capability',
      description: 'Needs the client to support sampling; fails with MissingRequiredClientCapability when the request did not declare it.',
      inputSchema: NO_ARGUMENTS,
      since: '2026-07-28',
      run(_args, context) {
        if (typeof context.era.clientCapabilities.sampling !== 'object' || context.era.clientCapabilities.sampling === null) {
          throw new MissingRequiredClientCapabilityError(
            { sampling: {} },
            'This tool needs the client to support sampling: declare it in _meta["io.modelcontextprotocol/clientCapabilities"]',
          );
        }
        return { content: [{ type: 'text', text: 'The request declared sampling' }] };
      },
    },
    {
      name: 'test_image_content',
      description: 'Returns an image content block.',
      inputSchema: NO_ARGUMENTS,
      run: () => ({ content: [{ type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' }] }),
    },
    {
      name: 'test_audio_content',
      description: 'Returns an audio content block.',
      inputSchema: NO_ARGUMENTS,
      run: () => ({ content: [{ type: 'audio', data: SILENT_WAV_BASE64, mimeType: 'audio/wav' }] }),
    },
    {
      name: 'test_embedded_resource',
      description: 'Returns an embedded resource.',
      inputSchema: NO_ARGUMENTS,
      run: () => ({
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      }),
    },
    {
      name: 'test_multiple_content_types',
      description: 'Returns text, an image and an embedded resource.',
      inputSchema: NO_ARGUMENTS,
      run: () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
        ],
      }),
    },
    {
      name: 'test_sampling',
      description: 'Asks the client to sample an LLM completion for a prompt.',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
      async run(args, context) {
        const result = await context.request('sampling/createMessage', {
          messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
          maxTokens: 100,
        });
        const content = result.content as { text?: string } | undefined;
        return { content: [{ type: 'text', text: `LLM response: ${content?.text ?? JSON.stringify(result)}` }] };
      },
    },
    {
      name: 'test_elicitation',
      description: 'Asks the user, through the client, for a username and an email.',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      async run(args, context) {
        const result = await context.request('elicitation/create', {
          message: args.message,
          requestedSchema: {
            type: 'object',
            properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
            required: ['username', 'email'],
          },
        });
        return { content: [{ type: 'text', text: `User response: ${JSON.stringify(result)}` }] };
      },
    },
    elicitationTool(
      'test_elicitation_sep1034_defaults',
      'Elicitation whose fields all carry defaults (SEP-1034).',
      'Please review and update the form fields with defaults',
      {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
    ),
    elicitationTool('test_elicitation_sep1330_enums', 'Elicitation with every enum form (SEP-1330).', 'Please select options from the enum fields', {
      untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
      titledSingle: {
        type: 'string',
        description: 'Select one option with titles',
        oneOf: [
          { const: 'value1', title: 'First Option' },
          { const: 'value2', title: 'Second Option' },
          { const: 'value3', title: 'Third Option' },
        ],
      },
      legacyEnum: {
        type: 'string',
        description: 'Select one option (legacy)',
        enum: ['opt1', 'opt2', 'opt3'],
        enumNames: ['Option One', 'Option Two', 'Option Three'],
      },
      untitledMulti: {
        type: 'array',
        description: 'Select multiple options',
        minItems: 1,
        maxItems: 3,
        items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      },
      titledMulti: {
        type: 'array',
        description: 'Select multiple options with titles',
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: [
            { const: 'value1', title: 'First Choice' },
            { const: 'value2', title: 'Second Choice' },
            { const: 'value3', title: 'Third Choice' },
          ],
        },
      },
    }),
    {
      name: 'json_schema_2020_12_tool',
      description: 'A tool whose input schema uses JSON Schema 2020-12 features ($defs, $ref).',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
        },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
      // 2026-07-28 allows any 2020-12 keyword (SEP-2106): an $anchor, composition and conditionals.
      revisedInputSchema: {
        since: '2026-07-28',
        schema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          $defs: {
            address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
          },
          properties: {
            name: { type: 'string' },
            address: { $ref: '#/$defs/address' },
            contactMethod: { type: 'string', enum: ['phone', 'email'] },
            phone: { type: 'string' },
            email: { type: 'string' },
          },
          allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
          if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
          then: { required: ['phone'] },
          else: { required: ['email'] },
          additionalProperties: false,
        },
      },
      run: (args) => ({ content: [{ type: 'text', text: `Received: ${JSON.stringify(args)}` }] }),
    },
    {
      // 2026-07-28 (SEP-2243): a parameter mirrored into the Mcp-Param-Region header.
      name: 'test_custom_header',
      description: 'Echoes a region that clients also send in the Mcp-Param-Region header.',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
        required: ['region'],
      },
      since: '2026-07-28',
      run: (args) => ({ content: [{ type: 'text', text: `Region: ${String(args.region)}` }] }),
    },
    {
      name: 'test_reconnection',
      description: 'Answers after a pause, long enough for a client to drop and resume its stream.',
      inputSchema: NO_ARGUMENTS,
      async run(_args, context) {
        await sleep(PROGRESS_STEP_MS, context.signal);
        return { content: [{ type: 'text', text: 'Reconnection test completed' }] };
      },
    },
  ];
}
