/**
 * The order search results are read in: search_code's (in the search worker that found them, or
 * on the main thread), get_code_context's when it looks for the definitions whose code mentions a
 * term, and the CLI's with `search --rank`, so that what a user sees at the shell is what an agent
 * sees. The signals are listed in the README ("How `search_code` ranks").
 */
import { detectLanguage } from '../files/languages.js';
import type { SymbolInfo } from '../symbols/types.js';
import { definitionMatches, HEADER_LINES, withDefinitions } from './definition-seeds.js';
import { pathDepth, pathPenalty } from './path-signals.js';
import { type Match, publicMatch, type SearchQuery } from './reader.js';
import { SymbolRows, type RankingSymbols } from './symbol-rows.js';

export type { RankingSymbols };

/** What ranking found of a match, besides its score: all that a result shows of it but the definition enclosing it. */
export interface RankFacts {
  /** How much a definition on the match's line is the one searched for: EXACT_NAME, PARTIAL_NAME, or 0. */
  weight: number;
  /** That definition, as a result names it (when weight > 0). */
  defined?: { kind: string; qualifiedName: string };
  /** Whether the language says that definition is exported or private. */
  seen?: 'public' | 'private';
  word: boolean;
  exactCase: boolean;
  generated: boolean;
}

export interface Ranked {
  match: Match;
  score: number;
  facts: RankFacts;
  /**
   * What a result shows, made only for the results shown: a page of a pool of a thousand or more.
   * A new object at each call, the caller's to add to.
   */
  describe(): Record<string, unknown>;
}

/** What each signal adds to a match's score (path penalties are path-signals.ts's). */
const EXACT_NAME = 100;
const PARTIAL_NAME = 30;
const VISIBILITY = 10;
const WHOLE_IDENTIFIER = 50;
const EXACT_CASE = 25;
const GENERATED_FILE = 50;

/**
 * The most a text match can score when every definition named exactly like a literal query is
 * among the seeds (definition-seeds.ts, `complete`): it is then no such definition (one on a
 * seed's line leaves the pool to the seed), so at most a whole identifier written as searched, or
 * a longer exported name that contains the literal, written as searched.
 */
export const TEXT_MATCH_CEILING = Math.max(WHOLE_IDENTIFIER + EXACT_CASE, PARTIAL_NAME + VISIBILITY + EXACT_CASE);

/** Where a ranked match stands after its score: ranking breaks a tie by the path's depth, then its length. */
export interface RankKey {
  score: number;
  depth: number;
  length: number;
}

/**
 * The best rank a match of a literal query can have in the file at `path` (its penalty, depth and
 * length), at the path's depth and length: TEXT_MATCH_CEILING less the path's penalty when no definition of the name there is
 * left unranked; when one is (`holdsDefinition`), an exported definition of the name, a whole
 * identifier written as searched, less it. A case-sensitive search gives nothing for case.
 */
export function bestUnread(path: { penalty: number; depth: number; length: number }, holdsDefinition: boolean, caseSensitive: boolean): RankKey {
  const ceiling = holdsDefinition ? EXACT_NAME + VISIBILITY + WHOLE_IDENTIFIER + EXACT_CASE : TEXT_MATCH_CEILING;
  return { score: ceiling - (caseSensitive ? EXACT_CASE : 0) - path.penalty, depth: path.depth, length: path.length };
}

/** Whether a match ranked `key` comes before one ranked `bound` that was read after it (a full tie goes to the first read). */
export function ranksBefore(key: RankKey, bound: RankKey): boolean {
  if (key.score !== bound.score) return key.score > bound.score;
  return key.depth !== bound.depth ? key.depth < bound.depth : key.length <= bound.length;
}

/** Whether a match ranked `key` comes before every match ranked `bound`, a full tie included (strictly before). */
export function strictlyBefore(key: RankKey, bound: RankKey): boolean {
  if (key.score !== bound.score) return key.score > bound.score;
  return key.depth !== bound.depth ? key.depth < bound.depth : key.length < bound.length;
}

/** A ranked result's place, as its answer ranks it (RankKey). */
export function rankedKey(item: Ranked): RankKey {
  return { score: item.score, depth: pathDepth(item.match.path), length: item.match.path.length };
}

/** A match found already, where it is (its project, path and line) and how it ranks (threads/project-search.ts counts it toward a page). */
export interface KnownMatch {
  root: string;
  path: string;
  line: number;
  key: RankKey;
}

/** A ranked result of the project at `root` as a known match. */
export function knownMatch(root: string, item: Ranked): KnownMatch {
  return { root, path: item.match.path, line: item.match.line, key: rankedKey(item) };
}

/**
 * How two ranked matches of different answers (projects searched apart) stand: by score, then the
 * path's depth and length, as ranking breaks ties within one answer. Equal ones keep the order
 * their answers give them, so each answer's own order holds within a merge.
 */
export function rankOrder(a: Ranked, b: Ranked): number {
  return b.score - a.score || pathDepth(a.match.path) - pathDepth(b.match.path) || a.match.path.length - b.match.path.length;
}

/** Where the language says: a public (exported) definition, a private one, or nothing said. */
function visibility(symbol: SymbolInfo, language: string | undefined): 'public' | 'private' | undefined {
  const { name, signature } = symbol;
  switch (language) {
    case 'go':
      return /^\p{Lu}/u.test(name) ? 'public' : 'private';
    case 'python':
      return name.startsWith('_') && !name.endsWith('__') ? 'private' : 'public';
    case 'rust':
      return /^\s*pub\b/.test(signature) ? 'public' : 'private';
    case 'c':
    case 'cpp':
      return /^\s*static\b/.test(signature) ? 'private' : undefined;
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return /^\s*export\b/.test(signature) ? 'public' : undefined;
    case 'java':
    case 'csharp':
    case 'kotlin':
    case 'scala':
    case 'swift':
    case 'php':
      return /\b(private|protected|internal|fileprivate)\b/.test(signature) ? 'private' : /\bpublic\b/.test(signature) ? 'public' : undefined;
    default:
      return undefined;
  }
}

/** What a path says about its matches, worked out once per path per ranking. */
interface PathFacts {
  penalty: number;
  depth: number;
  language: string | undefined;
}

/**
 * How much a definition named `name` is one of `target`: exactly (100), or holding a literal in a
 * longer name (30). For a regex, `target` is what it matched, and only all of it counts.
 */
function nameWeight(name: string, target: string, regex: boolean, fold: (text: string) => string): number {
  if (target === '') return 0;
  if (regex) return name === target ? EXACT_NAME : 0;
  const folded = fold(name);
  return folded === target ? EXACT_NAME : folded.includes(target) ? PARTIAL_NAME : 0;
}

/** An identifier's character: what may not touch a name on either side for the name to stand alone. */
const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/** Whether `name` is written at `start` of `text` as a whole identifier (case as `fold` says). */
function namedAt(text: string, start: number, name: string, fold: (text: string) => string): boolean {
  const end = start + name.length;
  return fold(text.slice(start, end)) === fold(name) && !IDENTIFIER_CHAR.test(text.charAt(start - 1)) && !IDENTIFIER_CHAR.test(text.charAt(end));
}

/** A ranked match as a result shows it; `enclosing`: the innermost definition around it. */
function describeMatch(match: Match, facts: RankFacts, enclosing: SymbolInfo | undefined): Record<string, unknown> {
  const result = publicMatch(match) as unknown as Record<string, unknown>;
  if (facts.weight === EXACT_NAME) result.definition = true;
  if (enclosing) result.symbol = { name: enclosing.name, kind: enclosing.kind, qualified_name: enclosing.qualifiedName, line: enclosing.line };
  const notes: string[] = [];
  if (facts.weight > 0) notes.push(`defines ${facts.defined!.kind} ${facts.defined!.qualifiedName}`);
  if (facts.seen) notes.push(facts.seen === 'public' ? 'exported' : 'private');
  if (facts.word) notes.push('whole identifier');
  if (facts.exactCase) notes.push('exact case');
  pathPenalty(match.path, notes);
  if (facts.generated) notes.push('generated file');
  if (notes.length > 0) result.rank_notes = notes;
  return result;
}

/**
 * Matches ranked elsewhere (by a search worker, rankSearch), made results again: each describes
 * itself from its facts and the definition that encloses it, read from `symbols` when shown.
 */
export function rankedFrom(symbols: RankingSymbols | undefined, matches: Match[], scores: ArrayLike<number>, facts: RankFacts[]): Ranked[] {
  const rows = new SymbolRows(symbols);
  return matches.map((match, at) => ({
    match,
    score: scores[at]!,
    facts: facts[at]!,
    describe: () => describeMatch(match, facts[at]!, rows.enclosingOf(match.path, match.line)),
  }));
}

/** A match scored, with what ranking then breaks a tie by: its path's depth, then its place in the pool. */
export interface Scored {
  match: Match;
  score: number;
  facts: RankFacts;
  depth: number;
  order: number;
}

export function rankKey(item: Scored): RankKey {
  return { score: item.score, depth: item.depth, length: item.match.path.length };
}

/**
 * Scores matches for a reader, one at a time, and orders them. The caller's pattern never runs
 * here: a regex can backtrack for ever, and this may be the server's main thread. Every signal
 * comes from the search worker's own verified match (its length, whether it is a whole
 * identifier, a regex's matched text) or from plain string comparison.
 *
 * `definitionsKnown`: every definition named exactly like the query is among the matches, carrying
 * it (`defines`: definition-seeds.ts). A whole-identifier match without one is then a use, and its
 * file's symbols need not be read to tell (only a longer name can contain the query: a match
 * inside a word).
 */
export class MatchScorer {
  readonly #rows: SymbolRows;
  readonly #query: string;
  readonly #regex: boolean;
  readonly #caseSensitive: boolean;
  readonly #definitionsKnown: boolean;
  readonly #needle: string;
  /** What a path says, worked out once per file (a pool has a thousand matches in a few hundred files). */
  readonly #paths = new Map<string, PathFacts>();

  constructor(loaded: RankingSymbols | undefined, query: string, regex: boolean, caseSensitive: boolean, definitionsKnown = false) {
    this.#rows = new SymbolRows(loaded);
    this.#query = query;
    this.#regex = regex;
    this.#caseSensitive = caseSensitive;
    this.#definitionsKnown = definitionsKnown;
    this.#needle = this.#fold(query);
  }

  #fold(text: string): string {
    return this.#caseSensitive ? text : text.toLowerCase();
  }

  #pathFacts(path: string): PathFacts {
    let facts = this.#paths.get(path);
    if (!facts) {
      facts = { penalty: pathPenalty(path), depth: pathDepth(path), language: detectLanguage(path) };
      this.#paths.set(path, facts);
    }
    return facts;
  }

  /** `match` scored; `order`: its place in the pool (the last tie-break). */
  score(match: Match, order: number): Scored {
    const regex = this.#regex;
    const fold = (text: string): string => this.#fold(text);
    let score = 0;
    // A definition of exactly the name searched for (for a regex: the regex matched exactly the name on its defining line) ranks first; one
    // whose name only contains the literal, less.
    const target = regex ? (match.matched ?? '') : this.#needle;
    let defined: SymbolInfo | undefined;
    let weight = 0;
    if (match.defines) {
      defined = match.defines;
      weight = nameWeight(defined.name, target, regex, fold);
    } else if (!(this.#definitionsKnown && !regex && match.word)) {
      this.#rows.visitLine(match.path, match.line, HEADER_LINES, (symbol, header) => {
        let symbolWeight = nameWeight(symbol.name, target, regex, fold);
        // Below the first line, only the name itself, where the match is, defines it: a whole
        // identifier (`libc_getentropy_trampoline` in the body of `GetEntropy` defines nothing).
        if (header && (symbolWeight !== EXACT_NAME || !namedAt(match.text, match.column - 1, symbol.name, fold))) symbolWeight = 0;
        // A literal nowhere on the line as a whole identifier is not the name of a definition
        // there: the name is on a line below (`struct nfs_server_ops *` / `nfs_server(…)` in C).
        if (!regex && match.word !== true && symbolWeight === EXACT_NAME) symbolWeight = 0;
        if (!defined || symbolWeight > weight) {
          defined = symbol;
          weight = symbolWeight;
        }
      });
    }
    const path = this.#pathFacts(match.path);
    const seen = defined && weight > 0 ? visibility(defined, path.language) : undefined;
    if (weight > 0) score += weight + (seen === 'public' ? VISIBILITY : seen === 'private' ? -VISIBILITY : 0);
    const word = !regex && match.word === true;
    if (word) score += WHOLE_IDENTIFIER;
    // Written as searched, where the search ignored case. Worth more than the swing between
    // exported and private (±10): case comes first.
    const exactCase = !regex && !this.#caseSensitive && match.text.startsWith(this.#query, match.column - 1);
    if (exactCase) score += EXACT_CASE;
    score -= path.penalty;
    // A file that says it is generated, where its path did not already say so.
    const generated = match.generated === true && path.penalty === 0;
    if (generated) score -= GENERATED_FILE;
    const facts: RankFacts = { weight, word, exactCase, generated };
    if (weight > 0) facts.defined = { kind: defined!.kind, qualifiedName: defined!.qualifiedName };
    if (seen) facts.seen = seen;
    return { match, score, facts, depth: path.depth, order };
  }

  /** Scored matches in ranking's order (sorted in place), each made a result that describes itself when shown. */
  rank(scored: Scored[]): Ranked[] {
    const rows = this.#rows;
    return scored
      .sort((a, b) => b.score - a.score || a.depth - b.depth || a.match.path.length - b.match.path.length || a.order - b.order)
      .map(({ match, score, facts }): Ranked => ({
        match,
        score,
        facts,
        describe: () => describeMatch(match, facts, rows.enclosingOf(match.path, match.line)),
      }));
  }
}

/** Matches in ranking's order (MatchScorer). */
export function rankMatches(
  loaded: RankingSymbols | undefined,
  matches: Match[],
  query: string,
  regex: boolean,
  caseSensitive: boolean,
  definitionsKnown = false,
): Ranked[] {
  const scorer = new MatchScorer(loaded, query, regex, caseSensitive, definitionsKnown);
  return scorer.rank(matches.map((match, order) => scorer.score(match, order)));
}

/**
 * One search's pool in search_code's order: the definitions of the name (definition-seeds.ts)
 * first, then the text matches not already among them, ranked. `seeds`: how many definitions joined.
 */
export function rankSearch(root: string, symbols: RankingSymbols | undefined, query: SearchQuery, matches: Match[]): { ranked: Ranked[]; seeds: number } {
  const regex = query.regex === true;
  const seeds = regex ? { matches: [], complete: false } : definitionMatches(root, symbols, query);
  const ranked = rankMatches(
    symbols,
    withDefinitions(seeds.matches, matches),
    query.pattern,
    regex,
    query.caseSensitive === true,
    symbols !== undefined && seeds.complete,
  );
  return { ranked, seeds: seeds.matches.length };
}
