/**
 * The conformance profile's fixtures for the tasks extension (SEP-2663), named and shaped as the
 * official suite's tasks-* scenarios describe them. Listed only to 2026-07-28 requests.
 */
import { InternalError } from '../jsonrpc/index.js';
import { InputRequired, type TaskControl, type ToolContext, type ToolDefinition, type ToolOutput } from '../mcp/index.js';
import { CodedError } from '../errors.js';

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const text = (value: string): ToolOutput => ({ content: [{ type: 'text', text: value }] });

/** As a task when the request allows one; otherwise inline, in this call (no mid-flight input possible then). */
function asTask(
  context: ToolContext,
  work: (task: TaskControl) => Promise<ToolOutput>,
): ReturnType<NonNullable<ToolContext['startTask']>> | Promise<ToolOutput> {
  if (context.startTask) return context.startTask(work);
  return work({
    signal: context.signal,
    requestInput: () =>
      Promise.reject(
        new CodedError("This tool needs the client's input mid-flight, which only a task can wait for: declare the io.modelcontextprotocol/tasks extension"),
      ),
  });
}

function confirm(message: string): { method: 'elicitation/create'; params: Record<string, unknown> } {
  return {
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } },
  };
}

export function conformanceTaskTools(): ToolDefinition[] {
  return [
    {
      name: 'greet',
      description: 'Greets someone at once (never a task).',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      since: '2026-07-28',
      run: (args) => text(`Hello, ${String(args.name)}!`),
    },
    {
      name: 'slow_compute',
      description: 'Works for `seconds` seconds (as a task when the client supports them), then answers.',
      inputSchema: { type: 'object', properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } }, required: ['seconds'] },
      since: '2026-07-28',
      taskSupport: 'optional',
      run(args, context) {
        const seconds = Number(args.seconds);
        return asTask(context, async (task) => {
          await pause(seconds * 1000, task.signal);
          return text(`Computed ${String(args.label ?? 'result')} after ${seconds} s`);
        });
      },
    },
    {
      name: 'failing_job',
      description: 'Always ends in a tool execution error after about a second (a task, required).',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      since: '2026-07-28',
      taskSupport: 'required',
      run: (_args, context) =>
        asTask(context, async (task) => {
          await pause(1000, task.signal);
          throw new CodedError('The job failed, as it always does');
        }),
    },
    {
      name: 'protocol_error_job',
      description: 'Fails with a protocol-level error inside its task.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      since: '2026-07-28',
      taskSupport: 'optional',
      run: (_args, context) =>
        asTask(context, async (task) => {
          await pause(100, task.signal);
          throw new InternalError('Internal error: the job broke down');
        }),
    },
    {
      name: 'confirm_delete',
      description: 'Asks the user to confirm (elicitation, mid-task), then reports what it did.',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
      since: '2026-07-28',
      taskSupport: 'optional',
      run: (args, context) =>
        asTask(context, async (task) => {
          const answers = await task.requestInput({ confirm: confirm(`Delete ${String(args.filename)}?`) });
          const accepted = (answers.confirm as { action?: unknown; content?: { confirm?: unknown } } | undefined)?.action === 'accept';
          return text(accepted ? `Deleted ${String(args.filename)}` : `Kept ${String(args.filename)}`);
        }),
    },
    {
      name: 'multi_input',
      description: 'Asks two questions at once (mid-task) and waits for both answers.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      since: '2026-07-28',
      taskSupport: 'optional',
      run: (_args, context) =>
        asTask(context, async (task) => {
          const answers = await task.requestInput({ first: confirm('First question: proceed?'), second: confirm('Second question: really?') });
          return text(`Answered: ${Object.keys(answers).sort().join(', ')}`);
        }),
    },
    {
      name: 'test_tool_with_task',
      description: 'Asks for a name by a multi round-trip request, then does the work as a task (required).',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      since: '2026-07-28',
      taskSupport: 'required',
      run(_args, context) {
        const answer = context.input?.responses.user_name as { action?: unknown; content?: { name?: unknown } } | undefined;
        const name = answer?.action === 'accept' ? answer.content?.name : undefined;
        if (typeof name !== 'string') {
          return new InputRequired({
            user_name: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'What is your name?',
                requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
              },
            },
          });
        }
        return asTask(context, async (task) => {
          await pause(200, task.signal);
          return text(`Task done for ${name}`);
        });
      },
    },
  ];
}
