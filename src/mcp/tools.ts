/**
 * The tools registry: definitions, `tools/list` shaped for the negotiated revision, and
 * `tools/call` with argument validation kept outside the handlers.
 */
import { counted, type Activity } from '../platform/idle-heap.js';
import { clipText, clipValue, InvalidParamsError, JsonRpcError, MAX_ERROR_MESSAGE_CHARS, type Params } from '../jsonrpc/index.js';
import { callerOf, type Caller } from '../caller.js';
import type { LogLevel } from './logging.js';
import { listResult } from './pagination.js';
import { compare } from './resources.js';
import { SchemaValidator } from './schema-validator.js';
import { servedIn, type Introduced, type RequestEra } from './request-era.js';
import { featuresOf, type AnyProtocolVersion } from './versions.js';
import { InputRequired, MalformedInput, type RoundInput } from './multi-round-trip.js';
import { requireTasks, TaskStarted, type TaskControl, type TaskStore } from './tasks/index.js';
import { UndeclaredClientCapabilityError } from './client-capability.js';
import { BusyError, CodedError } from '../errors.js';
import { ServerBusyError } from './errors.js';

export type JsonObject = Record<string, unknown>;

export type ContentBlock =
  | { type: 'text'; text: string; annotations?: JsonObject }
  | { type: 'image' | 'audio'; data: string; mimeType: string; annotations?: JsonObject }
  | { type: 'resource'; resource: JsonObject; annotations?: JsonObject }
  | { type: 'resource_link'; uri: string; name: string; [key: string]: unknown };

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
}

/** What a tool's `run` may return: content, or structured output that the registry also renders as text. */
export interface ToolOutput {
  content?: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
}

/** What a tool's run may give back: its output, a request for the client's input, or the handle of a task it started. */
export type ToolOutcome = ToolOutput | InputRequired | TaskStarted;

export interface ToolContext {
  signal: AbortSignal;
  /** The revision, capabilities and statefulness of the request (request-era.ts). */
  era: RequestEra;
  /** Transport facts attached to the request (session id, transport name, query…). */
  extra: unknown;
  progress(progress: number, total?: number, message?: string): boolean;
  log(level: LogLevel, data: unknown): void;
  /** The session the call came in on: per-connection state (detected project, roots) hangs off it. A stateless call gets an object of its own. */
  session: object;
  /** 2026-07-28 only: what a retry brought (inputResponses and the verified requestState); the tool may return InputRequired. */
  input?: RoundInput;
  /** 2026-07-28 with the tasks extension declared: where a task-supporting tool's tasks are kept. */
  tasks?: TaskStore;
  /**
   * Set for a task-supporting tool when the request allows a task: hands `work` to a task and
   * returns its handle, which the tool returns as its own result.
   */
  startTask?: (work: (task: TaskControl) => Promise<ToolOutput>) => TaskStarted;
  /** A request to the client on behalf of this call (sampling, elicitation, roots), checked against its capabilities. */
  request(method: string, params?: Record<string, unknown>, options?: ClientRequestOptions): Promise<Record<string, unknown>>;
}

export interface ClientRequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Its key when a 2026-07-28 call asks it as an input round (default `<method>_<n>`); a session ignores it. */
  inputKey?: string;
}

export interface ToolDefinition extends Introduced {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  icons?: JsonObject[];
  execution?: JsonObject;
  /** Whether the tool can hand its work to a task (tasks extension): `required` refuses a request that did not declare it. */
  taskSupport?: 'optional' | 'required';
  /**
   * The input schema from revision `since` on (2026-07-28 lets a tool schema use any JSON Schema
   * 2020-12 keyword, SEP-2106); older revisions keep `inputSchema`.
   */
  revisedInputSchema?: { since: AnyProtocolVersion; schema: JsonObject };
  /** A stateless request may get InputRequired back (multi round-trip requests: see multi-round-trip.ts). */
  run(args: JsonObject, context: ToolContext): Promise<ToolOutcome> | ToolOutcome;
}

/** A failure the tool wants the model to read (src/errors.ts): reported as `isError: true`, never as a protocol error. */

/** Where a coded tool error's details travel in the result, for programs (basic §_meta key format). */
const TOOL_ERROR_META_KEY = 'dev.sextant/error';

/** SEP-986: 1–128 characters from A-Z a-z 0-9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export interface ToolRegistryOptions {
  /** Where tool crashes are reported; they reach the client only as a short isError text. */
  onToolCrash?(name: string, error: unknown): void;
  /** Told when each call (or task's work) starts and settles: what the server's idle heap trim counts (idle-heap.ts). */
  activity?: Activity;
  /** Told of each call once answered (`serve --audit-log`): never its arguments. */
  onCall?(call: ToolCallRecord): void;
}

/** What the audit log keeps of a call. */
interface ToolCallRecord {
  tool: string;
  principal?: string;
  /** The named project, or the folder, the answer came from. */
  project?: string;
  /** `ok`, the tool error's code, `task_started`, `input_required`, or the protocol error's. */
  outcome: string;
  durationMs: number;
  results?: number;
}

/** How many results an answer holds: its `total_matches`, else the length of its first list. */
function resultCount(structured: Record<string, unknown> | undefined): number | undefined {
  if (!structured) return undefined;
  if (typeof structured.total_matches === 'number') return structured.total_matches;
  const list = Object.values(structured).find(Array.isArray);
  return list ? list.length : undefined;
}

export class ToolRegistry {
  readonly #tools = new Map<string, ToolDefinition>();
  readonly #validator = new SchemaValidator();
  readonly #options: ToolRegistryOptions;
  #sorted: ToolDefinition[] = [];

  constructor(options: ToolRegistryOptions = {}) {
    this.#options = options;
  }

  register(tool: ToolDefinition): this {
    if (!TOOL_NAME.test(tool.name)) throw new TypeError(`Invalid tool name "${tool.name}": use 1-128 of A-Z a-z 0-9 _ - .`);
    if (this.#tools.has(tool.name)) throw new TypeError(`Tool "${tool.name}" is already registered`);
    if (tool.inputSchema.type !== 'object') throw new TypeError(`Tool "${tool.name}": inputSchema must have type "object"`);
    if (tool.outputSchema && tool.outputSchema.type !== 'object') {
      throw new TypeError(`Tool "${tool.name}": outputSchema must have type "object"`);
    }
    // Schemas are compiled on a tool's first call, not here: compiling all of them was half of the
    // time to a server's first answer. Their dialect is checked now; compileAll() compiles them at
    // once (the tests call it for every profile).
    for (const schema of [tool.inputSchema, tool.revisedInputSchema?.schema, tool.outputSchema]) if (schema) SchemaValidator.checkDialect(schema);
    this.#tools.set(tool.name, tool);
    this.#sorted = [...this.#tools.values()].sort((a, b) => compare(a.name, b.name));
    return this;
  }

  get size(): number {
    return this.#tools.size;
  }

  /** Compiles every schema of every tool now: throws for the first that is not a valid schema. */
  compileAll(): void {
    for (const tool of this.#tools.values()) {
      for (const schema of [tool.inputSchema, tool.revisedInputSchema?.schema, tool.outputSchema]) {
        if (!schema) continue;
        try {
          this.#validator.compile(schema);
        } catch (error) {
          throw new TypeError(`Tool "${tool.name}": invalid schema: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
      }
    }
  }

  names(): string[] {
    return this.#sorted.map((tool) => tool.name);
  }

  list(era: RequestEra, cursor: unknown): Record<string, unknown> {
    return listResult(
      'tools',
      this.#sorted.filter((tool) => servedIn(tool, era)),
      (tool) => tool.name,
      cursor,
      (tool) => describeTool(tool, era.revision),
    );
  }

  /** The input schema a request of `era` calling `name` is held to (undefined for no such tool). */
  inputSchema(name: unknown, era: RequestEra): JsonObject | undefined {
    const tool = typeof name === 'string' ? this.#tools.get(name) : undefined;
    return tool && servedIn(tool, era) ? inputSchemaFor(tool, era.revision) : undefined;
  }

  call(params: Params, context: ToolContext): Promise<CallToolResult | InputRequired | TaskStarted> {
    const answered = counted(this.#options.activity, () => this.#call(params, context));
    const onCall = this.#options.onCall;
    if (!onCall) return answered;
    const started = performance.now();
    const record = (outcome: string, structured?: Record<string, unknown>): void => {
      const project = structured?.project ?? structured?.workspace;
      const results = resultCount(structured);
      // A principal a credential proved, never a digest of whatever header came unchecked.
      const principal = callerOf(context.extra as { caller?: Caller } | undefined).identity?.principal;
      onCall({
        tool: typeof params.name === 'string' ? params.name : '?',
        ...(principal !== undefined && { principal }),
        ...(typeof project === 'string' && { project }),
        outcome,
        durationMs: Math.round(performance.now() - started),
        ...(results !== undefined && { results }),
      });
    };
    return answered.then(
      (result) => {
        if (result instanceof TaskStarted) record('task_started');
        else if (result instanceof InputRequired) record('input_required');
        else if (result.isError) record(String((result._meta?.[TOOL_ERROR_META_KEY] as { code?: unknown } | undefined)?.code ?? 'error'));
        else record('ok', result.structuredContent as Record<string, unknown> | undefined);
        return result;
      },
      (error: unknown) => {
        record(error instanceof JsonRpcError ? String(error.code) : 'error');
        throw error;
      },
    );
  }

  async #call(params: Params, context: ToolContext): Promise<CallToolResult | InputRequired | TaskStarted> {
    const { name } = params;
    if (typeof name !== 'string') throw new InvalidParamsError('Invalid params: "name" must be a string');
    const tool = this.#tools.get(name);
    if (!tool || !servedIn(tool, context.era)) throw new InvalidParamsError(`Unknown tool: ${name}`, { name });
    const args = params.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new InvalidParamsError('Invalid params: "arguments" must be an object');
    }

    const features = featuresOf(context.era.revision);
    const checked = this.#validator.validate(inputSchemaFor(tool, context.era.revision), args);
    if (!checked.valid) {
      const text = `Invalid arguments for tool "${name}": ${checked.errors.join('; ')}`;
      // 2025-11-25 (SEP-1303) wants the model to see and fix this; earlier revisions call it a protocol error.
      if (features.argumentErrorsInResult) {
        // The product's code for a malformed argument (errors.ts), so that every failure reads alike.
        return toolErrorResult(
          new CodedError(text, { code: 'invalid_input', remedy: "Fix the arguments as listed: the tool's inputSchema says what each one takes." }),
        );
      }
      throw new InvalidParamsError(text, { errors: checked.errors });
    }

    if (tool.taskSupport === 'required' && !context.tasks) requireTasks(context.era.clientCapabilities);
    const tasks = tool.taskSupport ? context.tasks : undefined;
    // By delegation, not a copy: the context may be a class whose getters and methods a spread would drop.
    const startTask: ToolContext['startTask'] = (work) =>
      tasks!.start(
        async (control) => ({ ...(await this.#settle(tool, name, () => work(control), features.structuredOutput)), resultType: 'complete' }),
        callerOf(context.extra as { caller?: Caller } | undefined).principal,
      );
    const runContext: ToolContext = tasks ? Object.create(context, { startTask: { value: startTask } }) : context;
    let output: ToolOutput | InputRequired | TaskStarted;
    try {
      output = await tool.run(args as JsonObject, runContext);
      if (output instanceof TaskStarted) return output;
      if (output instanceof InputRequired) {
        // Only a stateless request can carry it to the client; anywhere else it is the tool's bug.
        if (!context.era.stateless) throw new Error('the tool asked for client input outside a 2026-07-28 request');
        return output;
      }
    } catch (error) {
      // A server-to-client request of a 2026 call (see StatelessEra.toolContext): the round's answer.
      if (error instanceof InputRequired && context.era.stateless) return error;
      return this.#failure(name, error, { aborted: context.signal.aborted, crash: 'answer' });
    }
    return this.#finish(tool, output, features.structuredOutput);
  }

  /** A task's work, settled like a call (#failure); a crash fails the task. */
  #settle(tool: ToolDefinition, name: string, work: () => Promise<ToolOutput>, structured: boolean): Promise<CallToolResult> {
    return counted(this.#options.activity, async () => {
      try {
        return this.#finish(tool, await work(), structured);
      } catch (error) {
        return this.#failure(name, error, { aborted: false, crash: 'throw' });
      }
    });
  }

  /**
   * What a tool's failure becomes, the one place for a call and a task alike: a coded failure is
   * a result with isError and its code; a capability the client did not declare, a result in
   * words; the server's load, -32014; a protocol error stays itself, as does anything once the
   * request was cancelled. Anything else is a crash, reported (onToolCrash): a call answers it in
   * words, a task fails with it.
   */
  #failure(name: string, error: unknown, how: { aborted: boolean; crash: 'answer' | 'throw' }): CallToolResult {
    if (error instanceof MalformedInput) throw error.error;
    if (error instanceof CodedError) return toolErrorResult(error);
    if (error instanceof BusyError) throw new ServerBusyError(error.message, error.retryAfterMs);
    if (error instanceof UndeclaredClientCapabilityError) return errorResult(error.message);
    if (error instanceof JsonRpcError || how.aborted) throw error;
    this.#options.onToolCrash?.(name, error);
    if (how.crash === 'throw') throw error;
    return errorResult(`Tool "${name}" failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  #finish(tool: ToolDefinition, output: ToolOutput, structured: boolean): CallToolResult {
    if (tool.outputSchema && !output.isError) {
      const checked = output.structuredContent
        ? this.#validator.validate(tool.outputSchema, output.structuredContent)
        : { valid: false as const, errors: ['structuredContent is missing'] };
      if (!checked.valid) {
        this.#options.onToolCrash?.(tool.name, new Error(`Output does not match outputSchema: ${checked.errors.join('; ')}`));
        return errorResult(`Tool "${tool.name}" produced output that does not match its outputSchema`);
      }
    }
    const content = output.content ?? [];
    // A structured result also travels as text, for clients that only read content (tools §Structured Content):
    // as the only text when the tool wrote none, or, for revisions without structuredContent, after the
    // tool's own text, so that older clients still get every field (cursors, counts). Compact: a model
    // reads it, and indentation costs tokens.
    if (output.structuredContent && (!structured || !content.some((block) => block.type === 'text'))) {
      content.push({ type: 'text', text: JSON.stringify(output.structuredContent) });
    }
    const result: CallToolResult = { content: boundedContent(content) };
    if (structured && output.structuredContent) result.structuredContent = output.structuredContent;
    if (output.isError) result.isError = true;
    return result;
  }
}

/**
 * Characters of text one tool result may hold: about 12,000 tokens at the usual ~4 characters a
 * token, well under the 25,000-token limit some clients enforce. Tools cut their lists to stay
 * under it; whatever still comes out longer (an echo of a huge input) is cut here.
 */
export const MAX_OUTPUT_CHARS = 48_000;

/** A failed result; its text (which may quote the input) bounded like an error message. */
function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text: clipText(text, MAX_ERROR_MESSAGE_CHARS) }], isError: true };
}

/** Text blocks cut so that together they stay within MAX_OUTPUT_CHARS. */
function boundedContent(content: ContentBlock[]): ContentBlock[] {
  let left = MAX_OUTPUT_CHARS;
  return content.map((block) => {
    if (block.type !== 'text' || typeof block.text !== 'string') return block;
    const text = clipText(block.text, Math.max(left, 200));
    left -= text.length;
    return text === block.text ? block : { ...block, text };
  });
}

/** A coded failure: readable text for the model, the same facts under `_meta` for programs. */
function toolErrorResult(error: CodedError): CallToolResult {
  const notes = error.notes.map((text) => ({ type: 'text' as const, text: clipText(text, MAX_ERROR_MESSAGE_CHARS) }));
  if (error.code === undefined && !error.remedy) return { ...errorResult(error.message), content: [...errorResult(error.message).content, ...notes] };
  const text = `Error ${error.code}: ${clipText(error.message, MAX_ERROR_MESSAGE_CHARS)}${error.remedy ? `\nRemedy: ${error.remedy}` : ''}`;
  const result = errorResult(text);
  result.content.push(...notes);
  result._meta = {
    [TOOL_ERROR_META_KEY]: clipValue({
      code: error.code,
      message: clipText(error.message, MAX_ERROR_MESSAGE_CHARS),
      ...(error.remedy ? { remedy: error.remedy } : {}),
      ...error.data,
    }) as JsonObject,
  };
  return result;
}

function inputSchemaFor(tool: ToolDefinition, revision: AnyProtocolVersion): JsonObject {
  const revised = tool.revisedInputSchema;
  return revised && revision >= revised.since ? revised.schema : tool.inputSchema;
}

/** A tool definition with only the fields the negotiated revision defines. */
function describeTool(tool: ToolDefinition, version: AnyProtocolVersion): JsonObject {
  const features = featuresOf(version);
  const described: JsonObject = { name: tool.name, description: tool.description, inputSchema: inputSchemaFor(tool, version) };
  if (features.structuredOutput && tool.title !== undefined) described.title = tool.title;
  if (features.structuredOutput && tool.outputSchema) described.outputSchema = tool.outputSchema;
  if (features.toolAnnotations && tool.annotations) described.annotations = tool.annotations;
  if (features.icons && tool.icons) described.icons = tool.icons;
  if (features.toolExecution && tool.execution) described.execution = tool.execution;
  return described;
}
