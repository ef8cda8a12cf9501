/**
 * Prompts: listing, getting with argument checks, and completion of their arguments. Sextant's
 * default server registers none yet; the registry answers correctly when empty.
 */
import { InputRequired, type RoundInput } from './multi-round-trip.js';
import { InvalidParamsError } from '../jsonrpc/index.js';
import { listResult } from './pagination.js';
import { servedIn, type Introduced, type RequestEra } from './request-era.js';
import { compare } from './resources.js';
import type { ContentBlock, JsonObject } from './tools.js';

/** The spec caps a completion answer at 100 values. */
const MAX_COMPLETION_VALUES = 100;

interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

export interface PromptDefinition extends Introduced {
  name: string;
  description: string;
  arguments?: PromptArgument[];
  get(args: Record<string, string>, input?: RoundInput): Promise<PromptResult | InputRequired> | PromptResult | InputRequired;
  /** Candidate values for one argument, given what the user typed so far. */
  complete?(argument: string, value: string, context: Record<string, string>): string[];
}

export class PromptRegistry {
  readonly #prompts = new Map<string, PromptDefinition>();

  register(prompt: PromptDefinition): this {
    if (this.#prompts.has(prompt.name)) throw new TypeError(`Prompt "${prompt.name}" is already registered`);
    this.#prompts.set(prompt.name, prompt);
    return this;
  }

  list(cursor: unknown, era: RequestEra): Record<string, unknown> {
    const sorted = [...this.#prompts.values()].filter((prompt) => servedIn(prompt, era)).sort((a, b) => compare(a.name, b.name));
    return listResult(
      'prompts',
      sorted,
      (prompt) => prompt.name,
      cursor,
      ({ get: _get, complete: _complete, since: _since, ...described }) => described,
    );
  }

  /** The prompt's messages; with `input` (a stateless request), possibly InputRequired instead. */
  async get(name: unknown, args: unknown, era: RequestEra, input?: RoundInput): Promise<JsonObject | InputRequired> {
    const prompt = this.#find(name);
    if (!servedIn(prompt, era)) throw new InvalidParamsError(`Unknown prompt: ${String(name)}`, { name });
    const values = stringRecord(args, 'arguments');
    const missing = (prompt.arguments ?? []).filter((arg) => arg.required && values[arg.name] === undefined).map((arg) => arg.name);
    if (missing.length > 0) throw new InvalidParamsError(`Missing required arguments for prompt "${prompt.name}": ${missing.join(', ')}`);
    const got = await prompt.get(values, input);
    return got instanceof InputRequired ? got : { ...got };
  }

  complete(ref: JsonObject, argument: JsonObject, context: unknown): { values: string[]; total?: number; hasMore?: boolean } {
    if (ref.type !== 'ref/prompt') {
      throw new InvalidParamsError(`Invalid params: no completions for ${JSON.stringify(ref.type)} ${JSON.stringify(ref.uri ?? ref.name)}`);
    }
    const prompt = this.#find(ref.name);
    if (typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      throw new InvalidParamsError('Invalid params: "argument" needs string "name" and "value"');
    }
    const contextArgs = typeof context === 'object' && context !== null ? stringRecord((context as JsonObject).arguments, 'context.arguments') : {};
    const all = prompt.complete?.(argument.name, argument.value, contextArgs) ?? [];
    if (all.length <= MAX_COMPLETION_VALUES) return { values: all, total: all.length, hasMore: false };
    return { values: all.slice(0, MAX_COMPLETION_VALUES), total: all.length, hasMore: true };
  }

  #find(name: unknown): PromptDefinition {
    const prompt = typeof name === 'string' ? this.#prompts.get(name) : undefined;
    if (!prompt) throw new InvalidParamsError(`Unknown prompt: ${String(name)}`);
    return prompt;
  }
}

function stringRecord(value: unknown, label: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidParamsError(`Invalid params: "${label}" must be an object`);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw new InvalidParamsError(`Invalid params: "${label}.${key}" must be a string`);
  }
  return value as Record<string, string>;
}
