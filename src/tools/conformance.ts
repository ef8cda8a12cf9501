/**
 * Reference fixtures named by the official conformance suite (@modelcontextprotocol/conformance),
 * served only with `--profile conformance`. They exercise the engine (progress, logging,
 * cancellation, error results); they are not code-intelligence tools.
 */
import { ToolError, type ToolDefinition } from '../mcp/tools.js';

/** Pause between progress steps: long enough for a client to cancel mid-call. */
export const PROGRESS_STEP_MS = 100;

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
        throw new ToolError('This tool intentionally returns an error for testing');
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
  ];
}
