/**
 * The order search results are read in: search_code's, get_code_context's when it looks for the
 * definitions whose code mentions a term, and the CLI's with `search --rank`, so that what a user
 * sees at the shell is what an agent sees. The signals are listed in the README ("How
 * `search_code` ranks").
 */
import { detectLanguage } from '../index/files/index.js';
import { type Match, pathDepth, pathPenalty, publicMatch, type SearchQuery } from '../index/search/index.js';
import { cacheOf, keep, touch } from '../util/lru.js';
import type { BriefSymbol, SymbolInfo } from '../index/symbols/index.js';
import type { ProjectSymbols } from '../workspace/project.js';
import { definitionMatches, HEADER_LINES, withDefinitions } from './search-seeds.js';

export interface Ranked {
  match: Match;
  score: number;
  order: number;
  depth: number;
  /** What a result shows, made only for the results shown: a page of a pool of a thousand or more. */
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
 * among the seeds (search-seeds.ts, `complete`): it is then no such definition (one on a seed's
 * line leaves the pool to the seed), so at most a whole identifier written as searched, or a
 * longer exported name that contains the literal, written as searched.
 */
export const TEXT_MATCH_CEILING = Math.max(WHOLE_IDENTIFIER + EXACT_CASE, PARTIAL_NAME + VISIBILITY + EXACT_CASE);

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
  notes: string[];
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

/** A file's definitions as ranking reads them: where to decode them, and (row, line, end line) each. */
interface FileRows {
  place: BriefSymbol | undefined;
  lines: Int32Array;
}

/** Files whose rows are kept between searches, per generation of the symbols (~12 bytes a definition). */
const CACHED_FILE_ROWS = 4_096;
/**
 * The rows read by earlier rankings, kept with the symbols they came from: a warm query reads no
 * file's records again, and a new generation of the symbols (after a sync) starts afresh.
 */
const rowsCaches = new WeakMap<object, Map<string, FileRows>>();

/**
 * Orders matches for a reader. The caller's pattern never runs here: a regex can backtrack for
 * ever and this is the server's main thread. Every signal comes from the search worker's own
 * verified match (its length, whether it is a whole identifier, a regex's matched text) or from
 * plain string comparison.
 *
 * `definitionsKnown`: every definition named exactly like the query is among the matches, carrying
 * it (`defines`: search-seeds.ts). A whole-identifier match without one is then a use, and its file's
 * symbols need not be read to tell (only a longer name can contain the query: a match inside a word).
 */
export function rankMatches(
  loaded: ProjectSymbols | undefined,
  matches: Match[],
  query: string,
  regex: boolean,
  caseSensitive: boolean,
  definitionsKnown = false,
): Ranked[] {
  // Per file, its definitions' rows and lines, read from the records without decoding a string:
  // a match needs only the definitions on its line and the one enclosing it, decoded once each.
  const perFile = loaded ? cacheOf(rowsCaches, loaded) : new Map<string, FileRows>();
  const decoded = new Map<string, SymbolInfo>();
  const rowsOf = (path: string): FileRows => {
    const known = touch(perFile, path);
    if (known) return known;
    const triples: number[] = [];
    let place: BriefSymbol | undefined;
    loaded?.visitBriefs(path, (brief) => {
      place ??= { ...brief };
      triples.push(brief.row, brief.line, brief.endLine);
    });
    const rows = { place, lines: Int32Array.from(triples) };
    keep(perFile, path, rows, CACHED_FILE_ROWS);
    return rows;
  };
  const symbolAt = (path: string, place: BriefSymbol, row: number): SymbolInfo => {
    const key = `${path}\0${row}`;
    let symbol = decoded.get(key);
    if (!symbol) {
      symbol = loaded!.symbolOf({ ...place, row });
      decoded.set(key, symbol);
    }
    return symbol;
  };
  const fold = (text: string): string => (caseSensitive ? text : text.toLowerCase());
  const needle = fold(query);
  /** The innermost definition around a line: the first of the shortest spans, in source order. */
  const enclosingOf = (path: string, lineNumber: number): SymbolInfo | undefined => {
    const { place, lines } = rowsOf(path);
    let enclosingRow = -1;
    let enclosingSpan = Infinity;
    for (let at = 0; at < lines.length; at += 3) {
      const line = lines[at + 1]!;
      const endLine = lines[at + 2]!;
      if (line <= lineNumber && endLine >= lineNumber && endLine - line < enclosingSpan) {
        enclosingRow = lines[at]!;
        enclosingSpan = endLine - line;
      }
    }
    return enclosingRow >= 0 ? symbolAt(path, place!, enclosingRow) : undefined;
  };
  // What a path says, worked out once per file (a pool has a thousand matches in a few hundred files).
  const paths = new Map<string, PathFacts>();
  const factsOf = (path: string): PathFacts => {
    let facts = paths.get(path);
    if (!facts) {
      const notes: string[] = [];
      facts = { penalty: pathPenalty(path, notes), notes, depth: pathDepth(path), language: detectLanguage(path) };
      paths.set(path, facts);
    }
    return facts;
  };
  return matches
    .map((match, order): Ranked => {
      let score = 0;
      // A definition of exactly the name searched for (for a regex: the regex matched exactly the name on its defining line) ranks first; one whose name only contains the literal, less.
      const target = regex ? (match.matched ?? '') : needle;
      let defined: SymbolInfo | undefined;
      let weight = 0;
      if (match.defines) {
        defined = match.defines;
        weight = nameWeight(defined.name, target, regex, fold);
      } else if (!(definitionsKnown && !regex && match.word)) {
        const { place, lines } = rowsOf(match.path);
        for (let at = 0; at < lines.length; at += 3) {
          const line = lines[at + 1]!;
          const endLine = lines[at + 2]!;
          // A definition's name may sit a line or two below where it starts (`static inline int` / `name(…)`).
          const header = line < match.line && match.line - line <= HEADER_LINES && endLine >= match.line;
          if (line !== match.line && !header) continue;
          const symbol = symbolAt(match.path, place!, lines[at]!);
          let symbolWeight = nameWeight(symbol.name, target, regex, fold);
          // Below the first line, only the name itself, where the match is, defines it: a whole
          // identifier (`libc_getentropy_trampoline` in the body of `GetEntropy` defines nothing).
          if (header && (symbolWeight !== EXACT_NAME || !namedAt(match.text, match.column - 1, symbol.name, fold))) symbolWeight = 0;
          if (!defined || symbolWeight > weight) {
            defined = symbol;
            weight = symbolWeight;
          }
        }
      }
      const facts = factsOf(match.path);
      const seen = defined && weight > 0 ? visibility(defined, facts.language) : undefined;
      if (weight > 0) score += weight + (seen === 'public' ? VISIBILITY : seen === 'private' ? -VISIBILITY : 0);
      const word = !regex && match.word === true;
      if (word) score += WHOLE_IDENTIFIER;
      // Written as searched, where the search ignored case. Worth more than the swing between
      // exported and private (±10): case comes first.
      const exactCase = !regex && !caseSensitive && match.text.startsWith(query, match.column - 1);
      if (exactCase) score += EXACT_CASE;
      score -= facts.penalty;
      // A file that says it is generated, where its path did not already say so.
      const generated = match.generated === true && facts.penalty === 0;
      if (generated) score -= GENERATED_FILE;
      const describe = (): Record<string, unknown> => {
        const result = publicMatch(match) as unknown as Record<string, unknown>;
        if (weight === EXACT_NAME) result.definition = true;
        const enclosing = enclosingOf(match.path, match.line);
        if (enclosing) result.symbol = { name: enclosing.name, kind: enclosing.kind, qualified_name: enclosing.qualifiedName, line: enclosing.line };
        const notes: string[] = [];
        if (weight > 0) notes.push(`defines ${defined!.kind} ${defined!.qualifiedName}`);
        if (seen) notes.push(seen === 'public' ? 'exported' : 'private');
        if (word) notes.push('whole identifier');
        if (exactCase) notes.push('exact case');
        notes.push(...facts.notes);
        if (generated) notes.push('generated file');
        if (notes.length > 0) result.rank_notes = notes;
        return result;
      };
      return { match, score, order, depth: facts.depth, describe };
    })
    .sort((a, b) => b.score - a.score || a.depth - b.depth || a.match.path.length - b.match.path.length || a.order - b.order);
}

/**
 * One search's pool in search_code's order: the definitions of the name (search-seeds.ts) first,
 * then the text matches not already among them, ranked. `seeds`: how many definitions joined.
 */
export function rankSearch(root: string, symbols: ProjectSymbols | undefined, query: SearchQuery, matches: Match[]): { ranked: Ranked[]; seeds: number } {
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
