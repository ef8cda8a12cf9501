/**
 * Turns a search into a trigram query: a necessary condition that every matching file meets,
 * after Russ Cox, "Regular Expression Matching with a Trigram Index" (simplified: exact string
 * sets through concatenation and alternation, anything else contributes no constraint). The
 * query only narrows the candidates; every candidate is verified, so a weak query is slower,
 * never wrong.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { literalTrigrams } from '../text/trigrams.js';

export type TrigramQuery = { op: 'all' } | { op: 'trigram'; trigram: number } | { op: 'and' | 'or'; children: TrigramQuery[] };

const ALL: TrigramQuery = { op: 'all' };
/** Bounds on the exact-string sets carried through concatenation (beyond them, flush to a query). */
const MAX_EXACT_SET = 16;
const MAX_EXACT_LENGTH = 24;
/** Character classes up to this many characters are expanded into exact alternatives. */
const MAX_CLASS_CHARS = 8;

function and(children: TrigramQuery[]): TrigramQuery {
  const flat = children.flatMap((child) => (child.op === 'and' ? child.children : child.op === 'all' ? [] : [child]));
  if (flat.length === 0) return ALL;
  return flat.length === 1 ? flat[0]! : { op: 'and', children: flat };
}

function or(children: TrigramQuery[]): TrigramQuery {
  if (children.length === 0 || children.some((child) => child.op === 'all')) return ALL;
  const flat = children.flatMap((child) => (child.op === 'or' ? child.children : [child]));
  return flat.length === 1 ? flat[0]! : { op: 'or', children: flat };
}

/**
 * A literal's trigrams beyond this many add nothing a candidate search can use (any subset is
 * still a necessary condition), and a megabyte-long query would otherwise cost a lookup each.
 */
const MAX_LITERAL_TRIGRAMS = 256;

export function literalQuery(literal: string, caseInsensitive: boolean): TrigramQuery {
  const variants = caseInsensitive ? caseVariants(literal) : undefined;
  // `naïve` without case: a file holds one of its spellings (naïve, NAÏVE…), each looked up exactly.
  if (variants) return or(variants.map((variant) => trigramsQuery(literalTrigrams(variant, false))));
  return trigramsQuery(literalTrigrams(literal, caseInsensitive));
}

function trigramsQuery(trigrams: number[] | undefined): TrigramQuery {
  return and((trigrams ?? []).slice(0, MAX_LITERAL_TRIGRAMS).map((trigram) => ({ op: 'trigram', trigram })));
}

/** Upper case, then lower: one key for the letters a case-insensitive match takes for each other (σ, ς, Σ; k and the Kelvin sign). */
const foldKey = (char: string): string => char.toUpperCase().toLowerCase();
let folds: Map<string, string[]> | undefined;

/** Every non-ASCII letter by its fold key (built once, on the first literal that needs it). */
function sameFold(): Map<string, string[]> {
  if (folds) return folds;
  folds = new Map();
  for (let code = 0x80; code <= 0x1ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    if (char.toLowerCase() === char && char.toUpperCase() === char) continue;
    const key = foldKey(char);
    const members = folds.get(key);
    if (members) members.push(char);
    else folds.set(key, [char]);
  }
  return folds;
}

/** A case-insensitive literal is spelled out in at most this many ways; beyond, its non-ASCII letters narrow nothing. */
const MAX_CASE_VARIANTS = 16;

/**
 * The spellings of a literal with non-ASCII letters in either case (ASCII letters stay: the
 * index folds them), or undefined when it has none, has too many, or has a letter whose other
 * case is not one character (`ß`, `İ`), which a trigram of its bytes could not follow.
 */
function caseVariants(literal: string): string[] | undefined {
  let variants = [''];
  let cased = false;
  for (const char of literal) {
    const code = char.codePointAt(0)!;
    const spellings = code < 0x80 ? [char] : [...new Set([char, char.toLowerCase(), char.toUpperCase(), ...(sameFold().get(foldKey(char)) ?? [])])];
    if (spellings.some((spelling) => [...spelling].length !== 1)) return undefined;
    if (spellings.length > 1) cased = true;
    if (variants.length * spellings.length > MAX_CASE_VARIANTS) return undefined;
    variants = variants.flatMap((prefix) => spellings.map((spelling) => prefix + spelling));
  }
  return cased ? variants : undefined;
}

interface Info {
  /** Every string the node can match, when that set is small and known. */
  exact: string[] | undefined;
  /** A condition every match satisfies (beyond what `exact` says). */
  query: TrigramQuery;
}

class RegexPlanner {
  readonly #caseInsensitive: boolean;

  constructor(caseInsensitive: boolean) {
    this.#caseInsensitive = caseInsensitive;
  }

  plan(pattern: AST.Pattern): TrigramQuery {
    return this.#toQuery(this.#alternatives(pattern.alternatives));
  }

  #toQuery(info: Info): TrigramQuery {
    if (!info.exact) return info.query;
    return and([info.query, or(info.exact.map((s) => literalQuery(s, this.#caseInsensitive)))]);
  }

  #alternatives(alternatives: AST.Alternative[]): Info {
    const infos = alternatives.map((alternative) => this.#sequence(alternative.elements));
    const union = infos.every((info) => info.exact) ? [...new Set(infos.flatMap((info) => info.exact!))] : undefined;
    // Each match satisfies its own alternative's condition, so their OR is required.
    if (union && union.length <= MAX_EXACT_SET) return { exact: union, query: or(infos.map((info) => info.query)) };
    return { exact: undefined, query: or(infos.map((info) => this.#toQuery(info))) };
  }

  #sequence(elements: AST.Element[]): Info {
    // Runs of single characters from small classes (`[0-9]{4}-[0-9]{2}`): each window of three
    // has few enough spellings to look up, which exact strings (at most 16) cannot carry.
    const required: TrigramQuery[] = classRuns(elements).map((run) => this.#windows(run));
    let run: string[] = [''];
    let whole = true;
    for (const element of elements) {
      const info = this.#element(element);
      required.push(info.query);
      if (info.exact) {
        const product = run.flatMap((left) => info.exact!.map((right) => left + right));
        if (product.length <= MAX_EXACT_SET && product.every((s) => s.length <= MAX_EXACT_LENGTH)) {
          run = product;
          continue;
        }
      }
      // The run of exact strings ends here: what it required stays required, and a new run starts.
      whole = false;
      required.push(this.#toQuery({ exact: run, query: ALL }));
      run = info.exact && info.exact.length <= MAX_EXACT_SET ? info.exact : [''];
    }
    if (whole) return { exact: run, query: and(required) };
    required.push(this.#toQuery({ exact: run, query: ALL }));
    return { exact: undefined, query: and(required) };
  }

  /** AND over each window of three positions of `run` that has few spellings, of the OR of its trigrams. */
  #windows(run: string[][]): TrigramQuery {
    const windows = new Map<string, TrigramQuery>();
    for (let i = 0; i + 3 <= run.length; i++) {
      const [a, b, c] = [run[i]!, run[i + 1]!, run[i + 2]!];
      if (a.length * b.length * c.length > MAX_WINDOW_SPELLINGS) continue;
      const spellings = a.flatMap((x) => b.flatMap((y) => c.map((z) => x + y + z)));
      const key = spellings.join('\u0000');
      if (!windows.has(key)) windows.set(key, or(spellings.map((spelling) => literalQuery(spelling, this.#caseInsensitive))));
    }
    return and([...windows.values()]);
  }

  #element(element: AST.Element): Info {
    switch (element.type) {
      case 'Character':
        return { exact: [String.fromCodePoint(element.value)], query: ALL };
      case 'CharacterClass':
        return this.#characterClass(element);
      case 'Group':
      case 'CapturingGroup':
        return this.#alternatives(element.alternatives);
      case 'Quantifier':
        return this.#quantifier(element);
      case 'Assertion':
        // Zero-width: matches the empty string as far as required text goes.
        return { exact: [''], query: ALL };
      default:
        return { exact: undefined, query: ALL };
    }
  }

  #characterClass(node: AST.CharacterClass): Info {
    if (node.negate || node.unicodeSets) return { exact: undefined, query: ALL };
    const chars: string[] = [];
    for (const element of node.elements) {
      if (element.type === 'Character') chars.push(String.fromCodePoint(element.value));
      else if (element.type === 'CharacterClassRange' && element.max.value - element.min.value < MAX_CLASS_CHARS) {
        for (let c = element.min.value; c <= element.max.value; c++) chars.push(String.fromCodePoint(c));
      } else return { exact: undefined, query: ALL };
      if (chars.length > MAX_CLASS_CHARS) return { exact: undefined, query: ALL };
    }
    return { exact: chars, query: ALL };
  }

  #quantifier(node: AST.Quantifier): Info {
    const inner = this.#element(node.element as AST.Element);
    if (node.min === 0) {
      // Optional: `x?` is {'', x}; anything unbounded promises nothing.
      if (node.max === 1 && inner.exact && inner.exact.length < MAX_EXACT_SET) return { exact: ['', ...inner.exact], query: ALL };
      return { exact: undefined, query: ALL };
    }
    // At least one occurrence: whatever the element requires is required.
    return { exact: undefined, query: this.#toQuery(inner) };
  }
}

/** A window of a class run is looked up only when it has at most this many spellings (`\d-\d`: 100). */
const MAX_WINDOW_SPELLINGS = 128;
/** Classes of up to this many characters take part in class runs. */
const MAX_RUN_CLASS_CHARS = 16;

/** The characters one element matches, when it is a single character of a small set. */
function charSetOf(element: AST.Node): string[] | undefined {
  if (element.type === 'Character') return [String.fromCodePoint(element.value)];
  if (element.type === 'CharacterSet') return element.kind === 'digit' && !element.negate ? [...'0123456789'] : undefined;
  if (element.type !== 'CharacterClass' || element.negate || element.unicodeSets) return undefined;
  const chars = new Set<string>();
  for (const part of element.elements) {
    if (part.type === 'CharacterClassRange') {
      if (part.max.value - part.min.value >= MAX_RUN_CLASS_CHARS) return undefined;
      for (let c = part.min.value; c <= part.max.value; c++) chars.add(String.fromCodePoint(c));
    } else {
      const inner = charSetOf(part);
      if (!inner) return undefined;
      for (const c of inner) chars.add(c);
    }
    if (chars.size > MAX_RUN_CLASS_CHARS) return undefined;
  }
  return chars.size > 0 ? [...chars] : undefined;
}

/**
 * The runs of a sequence in which every position is one character of a small set, at a fixed
 * distance from the run's start: characters, small classes, `\d`, and those repeated a fixed
 * number of times (`{n}`; `{n,m}` contributes its first n and ends the run, and its last n start
 * the next). Zero-width
 * assertions neither add nor break; anything else ends the run. Only runs of 3 or more count.
 */
function classRuns(elements: AST.Element[]): string[][][] {
  const runs: string[][][] = [];
  let run: string[][] = [];
  const end = (): void => {
    if (run.length >= 3) runs.push(run);
    run = [];
  };
  for (const element of elements) {
    if (element.type === 'Assertion') continue;
    const set = charSetOf(element);
    if (set) {
      run.push(set);
      continue;
    }
    const repeated = element.type === 'Quantifier' ? charSetOf(element.element) : undefined;
    if (element.type === 'Quantifier' && repeated) {
      const copies = Math.min(element.min, 8);
      for (let i = 0; i < copies; i++) run.push(repeated);
      if (element.max !== element.min || element.min > 8) {
        // `x{2,}y`: the last n characters of `x{n,}` are x too, right before y; the next run starts with them.
        end();
        for (let i = 0; i < copies; i++) run.push(repeated);
      }
      continue;
    }
    end();
  }
  end();
  return runs;
}

/** A pattern is quoted in messages (and so in logs) at most this long. */
const MAX_QUOTED_PATTERN = 120;

function quotePattern(pattern: string): string {
  return pattern.length <= MAX_QUOTED_PATTERN ? pattern : `${pattern.slice(0, MAX_QUOTED_PATTERN)}… (${pattern.length} characters)`;
}

export class BadPatternError extends Error {
  static readonly CODE = 'SEXTANT_ERR_BAD_PATTERN';
  readonly code = BadPatternError.CODE;
  /** `message` as said once (by `of`): a search worker's error is rebuilt from it on the main thread. */
  constructor(message: string) {
    super(message);
    this.name = 'BadPatternError';
  }

  static of(pattern: string, reason: string): BadPatternError {
    return new BadPatternError(`Invalid regular expression /${quotePattern(pattern)}/: ${reason}`);
  }
}

/** Longer regexes are refused: compiling one costs memory and stack out of all proportion to its use. */
const MAX_REGEX_CHARS = 8_192;

/** Literals shorter than this are not worth seeking by: the regex itself is as quick. */
const MIN_SEEK_LITERAL = 3;

/**
 * The longest run of plain characters that every match must contain: characters in sequence at
 * the top level of a pattern without alternation (not in a group, not quantified). A line
 * without it cannot match, so a search can jump between its occurrences with indexOf.
 */
function requiredLiteral(pattern: AST.Pattern): string | undefined {
  if (pattern.alternatives.length !== 1) return undefined;
  let best = '';
  let run = '';
  for (const element of pattern.alternatives[0]!.elements) {
    if (element.type === 'Character' && element.value !== 0x0a && element.value !== 0x0d) {
      run += String.fromCodePoint(element.value);
      if (run.length > best.length) best = run;
    } else {
      run = ''; // anything else (a class, a group, a quantifier, an assertion) ends the run
    }
  }
  return best.length >= MIN_SEEK_LITERAL ? best : undefined;
}

/** Parses with the flags the matcher will use; a pattern JavaScript cannot compile is a BadPatternError. */
export function planRegex(pattern: string, caseInsensitive: boolean): { query: TrigramQuery; unicode: boolean; literal?: string } {
  if (pattern.length > MAX_REGEX_CHARS)
    throw BadPatternError.of(pattern, `a regular expression may be at most ${MAX_REGEX_CHARS} characters (search for a long text without regex: true)`);
  for (const unicode of [true, false]) {
    try {
      new RegExp(pattern, unicode ? 'u' : '');
      const ast = new RegExpParser({ ecmaVersion: 2024 }).parsePattern(pattern, 0, pattern.length, { unicode });
      const literal = requiredLiteral(ast);
      return { query: new RegexPlanner(caseInsensitive).plan(ast), unicode, ...(literal ? { literal } : {}) };
    } catch (error) {
      if (!unicode)
        throw BadPatternError.of(pattern, error instanceof Error ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(error));
    }
  }
  throw BadPatternError.of(pattern, 'unparseable');
}
