/**
 * `get_code_context`: the definitions most relevant to a question, with their code, packed into
 * a token budget. Candidates are the definitions whose names or doc comments (doc-index.ts) hold
 * a word of the question, that the question names, that its terms' text matches fall in, and
 * those of files whose path holds a word; lexical-rank.ts ranks them. "breadth" gives many
 * definitions with a few lines each, "depth" fewer with their whole bodies.
 */
import { FileSymbols, MEMBER_SHARE } from './file-symbols.js';
import { surfaceFactor } from './public-surface.js';
import { lowValuePath, rankMatches } from '../../index/search/index.js';
import type { SymbolInfo } from '../../index/symbols/index.js';
import type { ToolDefinition } from '../../mcp/index.js';
import type { Project, ProjectSymbols } from '../../workspace/project.js';
import type { ProjectService } from '../../workspace/projects.js';
import { enclosingSymbol } from '../symbol-shape.js';
import { estimateTokens, MAX_OUTPUT_CHARS, MAX_QUESTION_CHARS } from '../limits.js';
import { projectLines } from '../workspace-files.js';
import { statusFields, STATUS_PROPERTIES, STATUS_REQUIRED } from '../status.js';
import { codedError } from '../../errors.js';
import { bm25, idf, questionWords, searchKey, STOP_WORDS, wordsOf, type Fields } from './lexical-rank.js';
import { aboveDefinition, DocIndex, docIndexOf } from './doc-index.js';
import { synonymsOf } from './synonyms.js';
import { projectTool } from '../project-tool.js';
import { requireSymbols } from '../symbol-tools.js';
import { plural } from '../../wording.js';

const DEFAULT_CONTEXT_TOKENS = 4_000;
/** The least a caller may ask for: room for one definition's first lines. */
const MIN_CONTEXT_TOKENS = 100;
/** The most a caller may ask for: the output budget, less room for the structure around the code. */
const MAX_CONTEXT_TOKENS = Math.floor(MAX_OUTPUT_CHARS / 4 / 2) - 500;
const BREADTH_LINES = 12;
/** Text matches of a term gathered, then ranked: the first TEXT_MENTIONS name definitions that mention it. */
const TEXT_POOL = 300;
const TEXT_MENTIONS = 60;
const DEPTH_LINES = 200;

/** A question's filler; `get` and `set` are names in code (getUser), so they are looked up. */
function stopWord(word: string): boolean {
  const lower = word.toLowerCase();
  return lower !== 'get' && lower !== 'set' && STOP_WORDS.has(lower);
}

/** Identifier-like terms of a question, with camelCase and snake_case pieces: looked up as names and as text. */
function termsOf(query: string): string[] {
  const words = query.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const terms = new Set<string>();
  for (const word of words) {
    if (word.length >= 3 && !stopWord(word)) terms.add(word);
    for (const piece of word.split(/_|(?<=[a-z0-9])(?=[A-Z])/)) if (piece.length >= 4 && !stopWord(piece)) terms.add(piece);
  }
  return [...terms].slice(0, 12);
}

/** Definitions gathered per question word and per term, ranked by rankCandidates. */
const PER_WORD = 80;
/** Ranked by name, parent and path first; the best this many are read for their doc and first lines. */
const READ_FOR_TEXT = 200;
const DOC_LINES = 12;
/** Definitions gathered per synonym of a question word, and what a synonym weighs against the word itself. */
const PER_SYNONYM = 40;
const SYNONYM_WEIGHT = 0.5;
/** Definitions gathered by their doc comments' words (doc-index.ts). */
const DOC_CANDIDATES = 100;
/** A question word that names more files than this in their paths is too common to gather them by. */
const PATH_FILES = 8;
/** Added to the score of a definition the question names as code (written capitalised, or as below). */
const NAMED_EXACTLY = 40;
const NAMED_IN_OTHER_CASE = 30;

/**
 * A name's words, and also each question word it holds inside one word: `deepcopy` holds `copy`
 * and `deep`, `fnmatch` holds `match` (names are not always split by case or `_`).
 */
function nameWords(name: string, question: Map<string, number>, standsFor: Map<string, string>): string[] {
  const words = wordsOf(name);
  const folded = name.toLowerCase();
  // Not a synonym: a short one (`int`, `dir`) is inside too many unrelated names (`print`, `direct`).
  for (const word of question.keys())
    if (word.length >= 3 && !standsFor.has(word) && !words.includes(word) && folded.includes(searchKey(word))) words.push(word);
  return words;
}

interface Candidate {
  symbol: SymbolInfo;
  path: string;
  /** Terms of the question found in its body by the text search (words, stemmed). */
  mentions: Set<string>;
  /** What naming it in the question adds: NAMED_EXACTLY, NAMED_IN_OTHER_CASE or 0. */
  nameHit: number;
  /**
   * The question names it exactly in a way only code is written (saveUser, get_user): it
   * leads whatever the words give the others. A capitalised word alone (Cache, but also a
   * sentence's first word) and a word with digits (sha256, often a library's) only add NAMED_EXACTLY.
   */
  named?: true;
  score: number;
  matched: string[];
  /** The type it is a member of, among the candidates (file-symbols.ts). */
  type?: Candidate;
}

interface Gathered {
  candidates: Candidate[];
  /** Each question word with its idf. */
  words: Map<string, number>;
  /** The words looked for in place of a question's word (synonyms.ts), each with the word it stands for. */
  standsFor: Map<string, string>;
  /** The definitions of the candidates' files (file-symbols.ts). */
  files: FileSymbols;
  /** The candidate for a definition, made if it was not one. */
  candidate: (symbol: SymbolInfo, path: string) => Candidate;
}

/** Every candidate: definitions whose names hold a question word, named by a term, or whose code mentions a term. */
async function gather(project: Project, symbols: ProjectSymbols, docs: DocIndex, terms: string[], questionWordList: string[]): Promise<Gathered> {
  const byKey = new Map<string, Candidate>();
  const candidate = (symbol: SymbolInfo, path: string): Candidate => {
    const key = `${path}\0${symbol.line}\0${symbol.name}`;
    let known = byKey.get(key);
    if (!known) byKey.set(key, (known = { symbol, path, mentions: new Set(), nameHit: 0, score: 0, matched: [] }));
    return known;
  };
  const words = new Map<string, number>();
  const total = Math.max(1, symbols.nameCount);
  for (const word of questionWordList) {
    const { found, names } = symbols.definitionsContaining(searchKey(word), PER_WORD);
    words.set(word, idf(names, total));
    for (const entry of found) candidate(entry.symbol, entry.path);
  }
  // The words code may say instead (synonyms.ts): looked for too, for less, and covering the question's word they stand for.
  const standsFor = new Map<string, string>();
  for (const word of questionWordList) for (const other of synonymsOf(word)) if (!words.has(other) && !standsFor.has(other)) standsFor.set(other, word);
  for (const [other] of standsFor) {
    const { found, names } = symbols.definitionsContaining(searchKey(other), PER_SYNONYM);
    words.set(other, idf(names, total) * SYNONYM_WEIGHT);
    for (const entry of found) candidate(entry.symbol, entry.path);
  }
  // By doc: the definitions whose doc comments hold the question's words (doc-index.ts).
  const docWords = new Map([
    ...questionWordList.map((word): [string, number] => [word, 1]),
    ...[...standsFor.keys()].map((word): [string, number] => [word, SYNONYM_WEIGHT]),
  ]);
  for (const entry of docs.best(docWords, DOC_CANDIDATES)) candidate(entry.symbol, entry.path);
  // The definitions of the few files whose path holds a question word (csv.py for "csv"): one pass over the paths.
  const filesByWord = new Map(questionWordList.map((word) => [word, [] as string[]]));
  for (const path of symbols.paths) for (const word of new Set(wordsOf(path.replace(/\.[^./]+$/, '')))) filesByWord.get(word)?.push(path);
  for (const files of filesByWord.values()) {
    if (files.length === 0 || files.length > PATH_FILES) continue;
    for (const path of files) for (const symbol of (symbols.symbolsIn(path) ?? []).slice(0, PER_WORD)) candidate(symbol, path);
  }
  const files = new FileSymbols(symbols);
  for (const term of terms) {
    // By name: the definitions called like the term.
    // A term written as code (saveUser, get_user, HTTPServer) names what it wants: that definition leads. A
    // capitalised word (Cache) may be a sentence's first word: it adds NAMED_EXACTLY, and the words decide.
    const onlyCode = /[a-z0-9][A-Z]|_/.test(term);
    const code = onlyCode || /^[A-Z]|\d/.test(term);
    for (const found of symbols.find(term, { limit: 25 })) {
      const known = candidate(found, found.path);
      if (code && found.score >= 90) known.nameHit = Math.max(known.nameHit, found.score === 100 ? NAMED_EXACTLY : NAMED_IN_OTHER_CASE);
      if (onlyCode && found.score === 100) known.named = true;
    }
    // By text: the definitions whose code mentions it, the mentions taken in search_code's order (ranking.ts), not path order.
    const hits = await project.search.search({ pattern: term, caseSensitive: false, limit: TEXT_POOL, sourceFirst: true });
    for (const { match: hit } of rankMatches(symbols, hits.matches, term, false, false).slice(0, TEXT_MENTIONS)) {
      const symbol = enclosingSymbol(files.in(hit.path), hit.line);
      if (symbol) for (const word of wordsOf(term)) candidate(symbol, hit.path).mentions.add(word);
    }
    // A term that is no question word (an identifier such as saveUser) still counts, by its pieces.
    for (const word of wordsOf(term))
      if (!words.has(word) && !STOP_WORDS.has(word)) words.set(word, idf(symbols.definitionsContaining(searchKey(word), 0).names, total));
  }
  return { candidates: [...byKey.values()], words, standsFor, files, candidate };
}

/**
 * Best first: BM25 over the name, parent and path words of every candidate, then again with the
 * doc comment and first lines of the best READ_FOR_TEXT; a definition the question names exactly
 * leads, tests, vendored and generated code come after all source, and a smaller definition wins a tie.
 */
function rankCandidates({ candidates, words, standsFor, files, candidate: candidateOf }: Gathered, root: string, docs: DocIndex): Candidate[] {
  const score = (candidate: Candidate, text: string[]): void => {
    const { symbol, path } = candidate;
    const doc = docs.of(path, symbol);
    const fields: Fields = {
      name: nameWords(symbol.name, words, standsFor),
      parent: wordsOf(symbol.parent ?? ''),
      path: wordsOf(path.replace(/\.[^./]+$/, '')),
      text,
      body: [...candidate.mentions],
      ...(doc && { summary: doc.summary, doc: doc.doc }),
    };
    const { score: lexical, matched } = bm25(fields, words, standsFor);
    candidate.score = lexical * surfaceFactor(symbol, path, files.nested(symbol, path)) + candidate.nameHit;
    candidate.matched = matched;
  };
  // Source before tests, test data, vendored and generated code, as search_code ranks.
  const low = new Map(candidates.map((candidate) => [candidate, Number(lowValuePath(candidate.path))]));
  const known = new Set(candidates);
  const order = (list: Candidate[]): Candidate[] =>
    list.sort(
      (a, b) =>
        low.get(a)! - low.get(b)! ||
        Number(b.named ?? false) - Number(a.named ?? false) ||
        b.score - a.score ||
        a.symbol.endLine - a.symbol.line - (b.symbol.endLine - b.symbol.line) ||
        a.path.localeCompare(b.path) ||
        a.symbol.line - b.symbol.line,
    );
  /** Each type at least MEMBER_SHARE of its best member (file-symbols.ts). */
  const lift = (list: Candidate[]): void => {
    for (const { type, score: memberScore } of list) if (type) type.score = Math.max(type.score, MEMBER_SHARE * memberScore);
  };
  for (const candidate of candidates) score(candidate, []);
  // A type found by its members (file-symbols.ts): the types of the best members join.
  for (const member of order(candidates).slice(0, READ_FOR_TEXT)) {
    const typeSymbol = files.typeOf(member.symbol, member.path);
    if (!typeSymbol) continue;
    const type = candidateOf(typeSymbol, member.path);
    member.type = type;
    if (known.has(type)) continue;
    known.add(type);
    candidates.push(type);
    low.set(type, Number(lowValuePath(type.path)));
    score(type, []);
  }
  lift(candidates);
  const first = order(candidates);
  const linesOf = projectLines(root);
  const head = first.slice(0, READ_FOR_TEXT);
  for (const candidate of head) score(candidate, wordsOf(docAndHead(linesOf, candidate.path, candidate.symbol).join('\n')));
  lift(candidates);
  // The lift may have raised a type past the head: the rest is ordered again too.
  const ranked = [...order(head), ...order(first.slice(READ_FOR_TEXT))];
  // Overloads of one name in one file (Java's Arrays.fill) say the same thing: the best one
  // keeps its place, the others follow every other definition.
  const seen = new Set<string>();
  const repeats: Candidate[] = [];
  const unique = ranked.filter((candidate) => {
    const key = `${candidate.path}\0${candidate.symbol.qualifiedName}`;
    if (!seen.has(key)) return seen.add(key);
    repeats.push(candidate);
    return false;
  });
  return [...unique, ...repeats];
}

/** The comment block just above a definition (and its decorators), up to DOC_LINES, and its first lines: signature, docstring. */
function docAndHead(linesOf: ReturnType<typeof projectLines>, path: string, symbol: SymbolInfo): string[] {
  const above = linesOf(path, symbol.line - DOC_LINES, symbol.line - 1);
  let keep = above.length;
  while (keep > 0 && aboveDefinition(symbol.language, above[keep - 1]!)) keep--;
  return [...above.slice(keep), ...linesOf(path, symbol.line, Math.min(symbol.endLine, symbol.line + DOC_LINES - 1))];
}

export function createCodeContextTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'get_code_context',
    title: 'Get code context',
    description:
      'Gathers the definitions most relevant to a question with their code. A plain-language question works: definitions are ranked ' +
      'by its words (BM25-style, rarer words counting more) in their names (camelCase and snake_case split), parents, paths, doc comments and first lines; ' +
      'an identifier written as code (saveUser, get_user) puts that definition first, and a capitalised name (Cache) weighs heavily; ' +
      'source comes before tests and vendored code. ' +
      `Packed into max_tokens (${MIN_CONTEXT_TOKENS} to ${MAX_CONTEXT_TOKENS}, default ${DEFAULT_CONTEXT_TOKENS}: every answer fits the output budget). ` +
      'strategy "breadth" (default) gives many definitions with their first ' +
      `lines; "depth" gives fewer, whole. ` +
      'Reports estimated_tokens, whether it was truncated, and how many candidates did not fit.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_QUESTION_CHARS,
          description: 'A question or some identifiers, e.g. "how does IndexReader verify candidates"',
        },
        max_tokens: {
          type: 'integer',
          minimum: MIN_CONTEXT_TOKENS,
          maximum: MAX_CONTEXT_TOKENS,
          default: DEFAULT_CONTEXT_TOKENS,
          description: `Tokens of code to gather, ${MIN_CONTEXT_TOKENS} to ${MAX_CONTEXT_TOKENS} (a larger answer would not fit the output budget)`,
        },
        strategy: { type: 'string', enum: ['breadth', 'depth'], default: 'breadth' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        terms: { type: 'array', items: { type: 'string' } },
        strategy: { type: 'string', enum: ['breadth', 'depth'] },
        context_items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              name: { type: 'string' },
              kind: { type: 'string' },
              qualified_name: { type: 'string' },
              line: { type: 'integer', minimum: 1 },
              end_line: { type: 'integer', minimum: 1 },
              code: { type: 'string' },
              code_truncated: { type: 'boolean' },
              matched_terms: { type: 'array', items: { type: 'string' } },
              tokens: { type: 'integer', minimum: 0 },
            },
            required: ['path', 'name', 'kind', 'qualified_name', 'line', 'end_line', 'code', 'matched_terms', 'tokens'],
            additionalProperties: false,
          },
        },
        estimated_tokens: { type: 'integer', minimum: 0 },
        max_tokens: { type: 'integer', minimum: 0 },
        truncated: { type: 'boolean' },
        remaining_candidates: { type: 'integer', minimum: 0 },
      },
      required: [...STATUS_REQUIRED, 'terms', 'strategy', 'context_items', 'estimated_tokens', 'max_tokens', 'truncated', 'remaining_candidates'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(project, _resolved, args) {
      // The symbols and the doc index of one generation: the stamps read once for both.
      const at = project.stamps();
      const { symbols, manifest } = requireSymbols(project, at);
      const terms = termsOf(args.query as string);
      if (terms.length === 0 && questionWords(args.query as string).length === 0)
        throw codedError('invalid_input', 'The query has no identifier or word of 3 letters or more to look up', { argument: 'query' });
      const maxTokens = (args.max_tokens as number | undefined) ?? DEFAULT_CONTEXT_TOKENS;
      const strategy = args.strategy === 'depth' ? 'depth' : 'breadth';
      // Kept while the symbols are: they change when the symbol phase has read the files again.
      // Docs that cannot be read leave the question to names, paths and text, as before docs counted.
      const docs = await docIndexOf(project.root, at.symbols, symbols).catch(() => new DocIndex());
      const ranked = rankCandidates(await gather(project, symbols, docs, terms, questionWords(args.query as string)), project.root, docs);
      const items: Array<Record<string, unknown>> = [];
      let used = 0;
      let index = 0;
      const linesOf = projectLines(project.root);
      for (; index < ranked.length; index++) {
        const candidate = ranked[index]!;
        const { symbol, path } = candidate;
        const span = strategy === 'depth' ? DEPTH_LINES : BREADTH_LINES;
        const end = Math.min(symbol.endLine, symbol.line + span - 1);
        const code = linesOf(path, symbol.line, end).join('\n');
        const tokens = estimateTokens(code) + 20;
        if (used + tokens > maxTokens) {
          if (items.length === 0 && tokens > maxTokens) continue; // too big alone: try the next one
          break;
        }
        used += tokens;
        const item: Record<string, unknown> = {
          path,
          name: symbol.name,
          kind: symbol.kind,
          qualified_name: symbol.qualifiedName,
          line: symbol.line,
          end_line: symbol.endLine,
          code,
          matched_terms: candidate.matched,
          tokens,
        };
        if (end < symbol.endLine) item.code_truncated = true;
        items.push(item);
      }
      // The token budget bounds the code; escaping in JSON and the text beside it could still pass
      // the output budget at the largest max_tokens: then the last items go.
      const render = (): { text: string; structured: Record<string, unknown> } => {
        const remaining = ranked.length - items.length;
        const truncated = remaining > 0;
        const text = [
          `${plural(items.length, 'definition')} for ${terms.join(', ')} (~${used} tokens of ` +
            `${maxTokens}${truncated ? `; ${remaining} more candidates did not fit` : ''}):`,
          ...items.map(
            (item) =>
              `\n## ${String(item.kind)} ${String(item.qualified_name)} — ` +
              `${String(item.path)}:${String(item.line)}-${String(item.end_line)}\n${String(item.code)}${item.code_truncated ? '\n…' : ''}`,
          ),
        ].join('\n');
        const structured = {
          ...statusFields(project, manifest, truncated ? 'truncated' : 'complete'),
          terms,
          strategy,
          context_items: items,
          estimated_tokens: used,
          max_tokens: maxTokens,
          truncated,
          remaining_candidates: remaining,
        };
        return { text, structured };
      };
      let rendered = render();
      while (items.length > 1 && rendered.text.length + JSON.stringify(rendered.structured).length > MAX_OUTPUT_CHARS) {
        used -= items.pop()!.tokens as number;
        rendered = render();
      }
      return { content: [{ type: 'text', text: rendered.text }], structuredContent: rendered.structured };
    },
  });
}
