/**
 * The search workers' wire format: a result packed column by column to cross the thread
 * boundary, and unpacked on the other side. Apart from the pool (service.ts), which only
 * sends and receives it.
 */
import type { Pooled } from './first-page/index.js';
import type { Ranked, RankFacts } from './ranking.js';
import type { Match, SearchResult } from './reader.js';

/**
 * A result as it crosses the thread boundary: column by column, each path once. Thousands of
 * small match objects cost far more to clone than a few arrays (the typed ones of a large result
 * are moved, not copied: movedBuffers).
 */
export interface PackedColumns extends Omit<SearchResult, 'matches'> {
  paths: string[];
  file: Int32Array;
  line: Int32Array;
  column: Int32Array;
  text: string[];
  context?: Array<{ before?: string[]; after?: string[] } | null>;
  /** Ranking signals (see Match): length, flags (1: a whole identifier, 2: in a generated file), and a regex's matched text. */
  length: Int32Array;
  flags: Uint8Array;
  matched?: string[];
  partial?: boolean;
  /** Set when the worker ranked its result: the matches are then the pool in ranked order. */
  ranking?: PackedRanking;
}

/**
 * A result with no match: its fields and no column at all. A search across projects sends back
 * one result per project, most of them empty, and the columns of each were most of what the
 * threads cloned and the main thread read back.
 */
interface PackedEmpty extends Omit<SearchResult, 'matches'> {
  empty: true;
  partial?: boolean;
  /** Set when the worker ranked its result (nothing to rank): what the ranking counted. */
  ranking?: HowRanked;
}

export type PackedResult = PackedColumns | PackedEmpty;

/** A ranking done in the worker (ranking.ts), column by column, one row per match of the pool. */
interface PackedRanking {
  score: Float64Array;
  weight: Uint8Array;
  /** 0: nothing said, 1: exported, 2: private. */
  seen: Uint8Array;
  /** 1: a whole identifier, 2: written as searched, 4: a generated file (as ranking counted them). */
  signals: Uint8Array;
  /** The definition a match is the name of, `kind\0qualifiedName`, where its weight is not 0. */
  defined: string[];
  how: HowRanked;
}

/** What a ranking counted beside its matches' scores and facts. */
export interface HowRanked {
  /** Definitions of the name that joined the pool (definition-seeds.ts). */
  seeds: number;
  rankingMs: number;
  /** Set when the search stopped early (first-page/early-page.ts): the first results no unread match can rank before. */
  certain?: number;
  /** Set when the project reads until a pool fills (first-page/shared-pool.ts): whose pool ended it. */
  pooled?: Pooled;
}

/** What a worker's ranking sends back beside the pool: each match's score and facts, in ranked order. */
export interface WorkerRanking extends HowRanked {
  scores: Float64Array;
  facts: RankFacts[];
}

/**
 * A packed result's columns beside the result's own fields, each named: a rest pattern and a
 * spread copy fields through a generic runtime path, which was much of packing the mostly empty
 * results of a search across projects.
 */
function packedOf(result: SearchResult & { partial?: boolean }, columns: Omit<PackedColumns, keyof SearchResult | 'partial'>): PackedColumns {
  const packed: PackedColumns = { truncated: result.truncated, stats: result.stats, ...columns };
  if (result.partial !== undefined) packed.partial = result.partial;
  return packed;
}

function packEmpty(result: SearchResult & { partial?: boolean }): PackedEmpty {
  const packed: PackedEmpty = { truncated: result.truncated, stats: result.stats, empty: true };
  if (result.partial !== undefined) packed.partial = result.partial;
  return packed;
}

export function pack(result: SearchResult & { partial?: boolean }): PackedResult {
  return result.matches.length === 0 ? packEmpty(result) : packColumns(result);
}

/** A result with matches, column by column. */
function packColumns(result: SearchResult & { partial?: boolean }): PackedColumns {
  const { matches } = result;
  const paths: string[] = [];
  const file = new Int32Array(matches.length);
  const line = new Int32Array(matches.length);
  const column = new Int32Array(matches.length);
  const text: string[] = new Array<string>(matches.length);
  const length = new Int32Array(matches.length);
  const flags = new Uint8Array(matches.length);
  let matched: string[] | undefined;
  let context: PackedColumns['context'];
  matches.forEach((match, i) => {
    if (paths.at(-1) !== match.path) paths.push(match.path);
    file[i] = paths.length - 1;
    line[i] = match.line;
    column[i] = match.column;
    text[i] = match.text;
    length[i] = match.length ?? 0;
    flags[i] = (match.word ? WORD : 0) | (match.generated ? GENERATED : 0);
    if (match.matched !== undefined) (matched ??= new Array<string>(matches.length).fill(''))[i] = match.matched;
    if (match.before || match.after) {
      context ??= new Array(matches.length).fill(null);
      context[i] = { ...(match.before ? { before: match.before } : {}), ...(match.after ? { after: match.after } : {}) };
    }
  });
  const packed = packedOf(result, { paths, file, line, column, text, length, flags });
  if (matched) packed.matched = matched;
  if (context) packed.context = context;
  return packed;
}

const WORD = 1;
const GENERATED = 2;

const SEEN = ['', 'public', 'private'] as const;
const RANKED_WORD = 1;
const RANKED_EXACT_CASE = 2;
const RANKED_GENERATED = 4;

/** A ranked pool packed as a result whose matches are in ranked order, with the ranking beside them. */
export function packRanked(result: SearchResult & { partial?: boolean }, ranked: Ranked[], how: HowRanked): PackedResult {
  if (ranked.length === 0) {
    const packed = packEmpty(result);
    packed.ranking = how;
    return packed;
  }
  const packed = packColumns({ truncated: result.truncated, stats: result.stats, partial: result.partial, matches: ranked.map((item) => item.match) });
  const ranking: PackedRanking = {
    score: new Float64Array(ranked.length),
    weight: new Uint8Array(ranked.length),
    seen: new Uint8Array(ranked.length),
    signals: new Uint8Array(ranked.length),
    defined: new Array<string>(ranked.length).fill(''),
    how,
  };
  ranked.forEach(({ score, facts }, i) => {
    ranking.score[i] = score;
    ranking.weight[i] = facts.weight;
    ranking.seen[i] = facts.seen ? SEEN.indexOf(facts.seen) : 0;
    ranking.signals[i] = (facts.word ? RANKED_WORD : 0) | (facts.exactCase ? RANKED_EXACT_CASE : 0) | (facts.generated ? RANKED_GENERATED : 0);
    if (facts.defined) ranking.defined[i] = `${facts.defined.kind}\0${facts.defined.qualifiedName}`;
  });
  packed.ranking = ranking;
  return packed;
}

/**
 * Below this many bytes of columns a result is copied across the thread boundary, not moved:
 * moving detaches each buffer and makes it again on the other side, a fixed cost per array that
 * is more than copying a few hundred bytes (a search across projects sends back one mostly empty
 * result per project).
 */
const MOVE_FROM_BYTES = 64 * 1024;

/** The typed arrays a packed result moves across the thread boundary instead of copying: none for a small one. */
export function movedBuffers(packed: PackedResult): ArrayBuffer[] {
  if ('empty' in packed) return [];
  const { ranking } = packed;
  const arrays = [
    packed.line,
    packed.column,
    packed.file,
    packed.length,
    packed.flags,
    ...(ranking ? [ranking.score, ranking.weight, ranking.seen, ranking.signals] : []),
  ];
  const bytes = arrays.reduce((sum, array) => sum + array.byteLength, 0);
  return bytes < MOVE_FROM_BYTES ? [] : arrays.map((array) => array.buffer as ArrayBuffer);
}

function unpackRanking(ranking: PackedRanking): WorkerRanking {
  const facts = Array.from(ranking.weight, (weight, i): RankFacts => {
    const signals = ranking.signals[i]!;
    const fact: RankFacts = {
      weight,
      word: (signals & RANKED_WORD) !== 0,
      exactCase: (signals & RANKED_EXACT_CASE) !== 0,
      generated: (signals & RANKED_GENERATED) !== 0,
    };
    const defined = ranking.defined[i]!;
    if (defined !== '') {
      const cut = defined.indexOf('\0');
      fact.defined = { kind: defined.slice(0, cut), qualifiedName: defined.slice(cut + 1) };
    }
    const seen = SEEN[ranking.seen[i]!]!;
    if (seen !== '') fact.seen = seen;
    return fact;
  });
  return withHow({ scores: ranking.score, facts, seeds: 0, rankingMs: 0 }, ranking.how);
}

/** `ranking` with what was counted beside it, each field named (no spread: see packedOf). */
function withHow(ranking: WorkerRanking, how: HowRanked): WorkerRanking {
  ranking.seeds = how.seeds;
  ranking.rankingMs = how.rankingMs;
  if (how.certain !== undefined) ranking.certain = how.certain;
  if (how.pooled !== undefined) ranking.pooled = how.pooled;
  return ranking;
}

/** The scores of no match: shared by every empty result read back (they are only read). */
const NO_SCORES = new Float64Array(0);

export function unpack(packed: PackedResult): SearchResult & { partial?: boolean; ranking?: WorkerRanking } {
  const result: SearchResult & { partial?: boolean; ranking?: WorkerRanking } = { truncated: packed.truncated, stats: packed.stats, matches: [] };
  if (packed.partial !== undefined) result.partial = packed.partial;
  if ('empty' in packed) {
    const { ranking } = packed;
    if (ranking) result.ranking = withHow({ scores: NO_SCORES, facts: [], seeds: 0, rankingMs: 0 }, ranking);
    return result;
  }
  const { paths, file, line, column, text, context, length, flags, matched, ranking } = packed;
  result.matches = text.map((value, i): Match => {
    const match: Match = { path: paths[file[i]!]!, line: line[i]!, column: column[i]!, text: value, ...(context?.[i] ?? {}), length: length[i]! };
    if (matched) match.matched = matched[i]!;
    else match.word = (flags[i]! & WORD) !== 0;
    if (flags[i]! & GENERATED) match.generated = true;
    return match;
  });
  if (ranking) result.ranking = unpackRanking(ranking);
  return result;
}
