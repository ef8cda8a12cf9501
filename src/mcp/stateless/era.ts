/**
 * The parts of the 2026-07-28 era that outlive a request: the request-state sealer, the tasks,
 * the open listen streams. One per server, for its stateless dispatcher and every session (a 2026
 * request keeps nothing of its own), and the handlers that need them: multi round-trip rounds, the tool
 * context of a stateless call, and `subscriptions/listen`.
 */
import { callerOf } from '../../caller.js';
import { InvalidParamsError, type Params, type RequestContext, type Result } from '../../jsonrpc/index.js';
import { isAtLeast } from '../logging.js';
import { isObject, META_KEYS, type StatelessRequest } from './request.js';
import { InputRequired, inputRequiredResult, MalformedInput, roundInput, type RoundInput } from '../multi-round-trip.js';
import type { RequestStateSealer } from '../request-state.js';
import type { Listener, MessageContext } from '../context.js';
import { declaresTasks, requireTasks, TaskStarted, type TaskStore } from '../tasks/index.js';
import { type ToolContext } from '../tools.js';
import { CodedError } from '../../errors.js';

export class StatelessEra {
  readonly sealer: RequestStateSealer;
  readonly tasks: TaskStore;
  readonly #listen: ((listener: Listener) => () => void) | undefined;

  constructor(options: { sealer: RequestStateSealer; tasks: TaskStore; listen?: (listener: Listener) => () => void }) {
    this.sealer = options.sealer;
    this.tasks = options.tasks;
    this.#listen = options.listen;
  }

  /**
   * Runs a handler that may need the client's input (multi round-trip requests): the retry's
   * inputResponses and verified requestState go in; an InputRequired coming out becomes the
   * `input_required` result, its state sealed to this request and principal; a task handle
   * becomes the CreateTaskResult.
   */
  async withRounds(
    method: string,
    params: Params,
    context: RequestContext<MessageContext>,
    request: StatelessRequest,
    run: (input: RoundInput) => Promise<object>,
  ): Promise<Result> {
    const principal = callerOf(context.extra).principal;
    const outcome = await run(await roundInput(this.sealer, method, params, principal));
    if (outcome instanceof TaskStarted) return this.tasks.created(outcome.taskId);
    if (!(outcome instanceof InputRequired)) return { ...outcome } as Result;
    return inputRequiredResult(outcome, { sealer: this.sealer, method, params, capabilities: request.capabilities, principal });
  }

  /**
   * A tool call of the stateless era: everything comes from the request. Log messages go out only
   * when it named a level; there is no session to keep a detected project in (project tools use
   * a stand-in per roots list), and no server-to-client request: the client's input comes by
   * multi round-trip requests (`input`) or, in a task, through tasks/update.
   */
  toolContext(params: Params, context: RequestContext<MessageContext>, request: StatelessRequest, input: RoundInput): ToolContext {
    const logger = typeof params.name === 'string' ? params.name : undefined;
    // A tool written against server-to-client requests works too: its n-th request becomes the
    // input request keyed `<method>_<n>` (the tool runs again from the start every round, so n is
    // stable), and the answers of earlier rounds ride along in the sealed state.
    const previous = (input.state as { answers?: Record<string, unknown> } | undefined)?.answers ?? {};
    const answers = { ...previous, ...input.responses };
    let asked = 0;
    return {
      get signal() {
        return context.signal;
      },
      era: request.era,
      input,
      tasks: declaresTasks(request.capabilities) ? this.tasks : undefined,
      extra: context.extra,
      // No session: an object of this call's own, so that nothing a tool keeps per session outlives it.
      session: {},
      progress: (progress, total, message) => context.progress(progress, total, message),
      log: (level, data) => {
        if (request.logLevel !== undefined && isAtLeast(level, request.logLevel)) context.notify('notifications/message', { level, logger, data });
      },
      request: async (method, requestParams, options) => {
        if (method !== 'elicitation/create' && method !== 'sampling/createMessage' && method !== 'roots/list') {
          throw new CodedError(
            `"${method}" cannot be asked of the client in protocol 2026-07-28 (only elicitation, sampling and roots, by multi round-trip requests)`,
          );
        }
        const key = options?.inputKey ?? `${method.replace('/', '_')}_${++asked}`;
        if (answers[key] !== undefined) return checkedAnswer(method, key, answers[key]);
        // Thrown, not returned: the tool stops here; tools.call turns it into its answer.
        throw new InputRequired({ [key]: { method, params: requestParams ?? {} } }, Object.keys(answers).length > 0 ? { answers } : undefined);
      },
    };
  }

  /**
   * `subscriptions/listen`: acknowledges what it will honor (only resource updates: the tool,
   * prompt and resource lists never change), then stays open, every notification tagged with the
   * request's id, until the client cancels it (or closes the stream) or the connection ends.
   */
  async listen(params: Params, context: RequestContext<MessageContext>, request: StatelessRequest): Promise<Result> {
    const filter = params.notifications;
    if (!isObject(filter)) throw new InvalidParamsError('Invalid params: "notifications" must be an object (a SubscriptionFilter)');
    const strings = (field: string): string[] => {
      const value = filter[field];
      if (value !== undefined && (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))) {
        throw new InvalidParamsError(`Invalid params: "notifications.${field}" must be a list of strings`);
      }
      return (value ?? []) as string[];
    };
    const resources = strings('resourceSubscriptions');
    // Task status (tasks extension, SEP-2663): only for a client that declared it, only for tasks it can see, wherever they run.
    const requestedTasks = strings('taskIds');
    if (filter.taskIds !== undefined) requireTasks(request.capabilities);
    const meta = { [META_KEYS.subscriptionId]: context.id };
    const tasks = await this.tasks.follow(requestedTasks, callerOf(context.extra).principal, (task) =>
      context.notify('notifications/tasks', { ...task, _meta: meta }),
    );
    const honored: Params = {};
    if (resources.length > 0) honored.resourceSubscriptions = resources;
    if (filter.taskIds !== undefined) honored.taskIds = tasks.honored;
    context.notify('notifications/subscriptions/acknowledged', { _meta: meta, notifications: honored });
    const stop = this.#listen?.({ resources, notify: (method, notification) => context.notify(method, { ...notification, _meta: meta }) });
    try {
      await new Promise<void>((resolve) => {
        if (context.signal.aborted) return resolve();
        context.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      stop?.();
      tasks.stop();
    }
    return { _meta: meta };
  }
}

/**
 * A client's input response, as the request it answers defines it: a roots list must be a
 * ListRootsResult, or the retry is malformed (-32602), never read as "no roots".
 */
function checkedAnswer(method: string, key: string, answer: unknown): Result {
  if (!isObject(answer))
    throw new MalformedInput(new InvalidParamsError(`Invalid params: inputResponses["${key}"] must be an object (the result of ${method})`));
  if (method === 'roots/list' && !Array.isArray(answer.roots)) {
    throw new MalformedInput(new InvalidParamsError(`Invalid params: inputResponses["${key}"] must be a ListRootsResult ({ roots: [...] })`));
  }
  return answer;
}
