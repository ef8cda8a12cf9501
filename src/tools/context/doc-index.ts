/**
 * The doc comments of a project's definitions, as words a question can find them by. A
 * definition is documented in prose more often than its name says what it does (`Semaphore`:
 * "a counting semaphore … restrict the number of threads than can access some resource"), so
 * get_code_context gathers candidates by their docs too, not only by their names. Built once per
 * index generation from the symbols and the files' text, in any language: the comment block
 * just above a definition (`///`, `//`, `#`, `/** … *\/`, `--`), past the annotations and
 * attributes between (`@Override`, `#[inline]`, `[Obsolete]`), or a docstring just below its
 * first line (Python). The first sentence is the summary, which says most.
 */
import { join } from 'node:path';
import { ProjectFiles } from '../../index/files/index.js';
import { fileStamp } from '../../index/store/index.js';
import type { SymbolInfo } from '../../index/symbols/index.js';
import type { ProjectSymbols } from '../../workspace/project.js';
import { STOP_WORDS, wordsOf } from './lexical-rank.js';

/** Definitions documented at most: past it, the rest of a very large tree is found by name only. */
const MAX_ENTRIES = 200_000;
/** Files read between two turns of the event loop while an index is built. */
const FILES_PER_TURN = 32;
/** Comment lines read above a definition (from the top of its block), and docstring lines below it. */
const MAX_DOC_LINES = 40;
/** How far up a comment block above a definition is looked for its first line. */
const MAX_BLOCK_LINES = 400;
/** Words of a doc kept (the summary's are all kept). */
const MAX_DOC_WORDS = 60;
/** A word is too common to gather by only in more docs than this, however small the project. */
const COMMON_FLOOR = 50;
/** Projects whose doc index is kept (each at its latest generation only). */
const KEPT_INDEXES = 4;

/** One documented definition: its summary's words and the rest of its doc's. */
export interface DocEntry {
  symbol: SymbolInfo;
  path: string;
  summary: string[];
  doc: string[];
}

/** Kinds documented for what they do: a local variable's comment says little of the code around it. */
const DOCUMENTED = new Set(['function', 'method', 'class', 'struct', 'union', 'interface', 'type', 'enum', 'record', 'annotation', 'macro', 'module']);

/** A comment line, by how the language writes one: `#` is a comment in Python, not C's `#  define`. */
const SLASH_COMMENT = /^\s*(\/\/|\*|\/\*)/;
const HASH_COMMENT = /^\s*#/;
const DASH_COMMENT = /^\s*--/;
const HASH_LANGUAGES = new Set(['python', 'ruby', 'bash']);

function isComment(language: string, line: string): boolean {
  if (HASH_LANGUAGES.has(language)) return HASH_COMMENT.test(line);
  if (language === 'lua') return DASH_COMMENT.test(line);
  return SLASH_COMMENT.test(line) || (language === 'php' && HASH_COMMENT.test(line) && !line.trimStart().startsWith('#['));
}

/** Languages whose doc is a string just inside the definition. */
const DOCSTRING_LANGUAGES = new Set(['python']);
/** Lines a signature may run over before its closing `:`. */
const SIGNATURE_LINES = 8;
const ANNOTATION = /^\s*(@[\w.]+(\s*\(.*\))?|#!?\[.*\]|\[[^\]]*\])\s*$/;

/** Whether a line above a definition belongs to its doc: a comment as its language writes one, or an annotation. */
export function aboveDefinition(language: string, line: string): boolean {
  return ANNOTATION.test(line) || isComment(language, line);
}
const DOCSTRING = /^\s*[rbuRBU]?("""|''')/;

/** The prose of comment or docstring lines: markers, tags, markup and links taken out. */
function prose(lines: string[]): string {
  return lines
    .map((line) =>
      line
        .replace(/^\s*(\/\/\/?!?|#|\*\/?|\/\*\*?|--)\s?/, '')
        .replace(/\*\/\s*$/, '')
        .replace(/("""|''')/g, ''),
    )
    .join('\n')
    .replace(/\{@\w+\s+([^}]*)\}/g, '$1')
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*@(param|return|throws|exception|see|since|author|apiNote|implNote|implSpec)\b.*$/gm, '')
    .trim();
}

/** The first sentence: to the first full stop followed by a space or the end, or the first blank line. */
function firstSentence(text: string): string {
  const blank = text.search(/\n\s*\n/);
  const head = blank >= 0 ? text.slice(0, blank) : text;
  const stop = head.search(/\.(\s|$)/);
  return stop >= 0 ? head.slice(0, stop) : head;
}

const meaningful = (word: string): boolean => !STOP_WORDS.has(word);

/**
 * The doc of `symbol` in its file's `lines`: the comment block above it, else its docstring, the
 * first statement of its body (a definition with none has no doc, whatever follows it).
 */
function docOf(lines: string[], symbol: SymbolInfo): string {
  // The whole block above, to its first line: a doc's summary is at its top, however long it is.
  let from = symbol.line - 1;
  while (from > 0 && symbol.line - from < MAX_BLOCK_LINES && aboveDefinition(symbol.language, lines[from - 1]!)) from--;
  const above = lines.slice(from, symbol.line - 1).filter((text) => !ANNOTATION.test(text));
  // Lines of `*` are a comment only under the `/*` that opens them (`*p = 0;` is code).
  if (above.some((text) => /^\s*\*(?!\/)/.test(text)) && !above.some((text) => /^\s*\/\*/.test(text))) above.length = 0;
  if (above.length > 0) return prose(above.slice(0, MAX_DOC_LINES));
  if (!DOCSTRING_LANGUAGES.has(symbol.language)) return '';
  const last = Math.min(lines.length, symbol.endLine);
  let at = symbol.line - 1;
  while (at < last && at < symbol.line - 1 + SIGNATURE_LINES && !/:\s*(#.*)?$/.test(lines[at]!)) at++;
  for (at++; at < last && lines[at]!.trim() === '';) at++;
  if (at >= last || !DOCSTRING.test(lines[at]!)) return '';
  const body: string[] = [lines[at]!];
  const quote = DOCSTRING.exec(lines[at]!)![1]!;
  const closedOnOpening = lines[at]!.split(quote).length > 2;
  for (let next = at + 1; !closedOnOpening && next < Math.min(last, at + MAX_DOC_LINES); next++) {
    body.push(lines[next]!);
    if (lines[next]!.includes(quote)) break;
  }
  return prose(body);
}

export class DocIndex {
  readonly entries: DocEntry[] = [];
  /** Each word's entries, by summary or doc. */
  readonly #postings = new Map<string, number[]>();
  readonly #byPlace = new Map<string, number>();
  /** Each file read: its stamp then, and its entries (the next generation takes them while the file is unchanged). */
  readonly #files = new Map<string, { stamp: string; entries: DocEntry[] }>();

  /**
   * Built from every file's definitions, in path order, up to MAX_ENTRIES; a few files at a time,
   * letting other work of the server run between (a large tree takes a while). `previous`: the
   * index of the project's symbols before, whose docs of files unchanged since are taken as they are.
   */
  static async build(root: string, symbols: ProjectSymbols, previous?: DocIndex): Promise<DocIndex> {
    const index = new DocIndex();
    const files = new ProjectFiles(root);
    let read = 0;
    for (const path of symbols.paths) {
      if (index.entries.length >= MAX_ENTRIES) break;
      // A file's stamp (inode, time and size): its docs read at one stamp hold while it is unchanged; '' when it is gone.
      const stamp = fileStamp(join(root, path));
      const known = stamp === '' || previous === undefined ? undefined : previous.#files.get(path);
      if (known && known.stamp === stamp) {
        for (const entry of known.entries) index.#add(entry);
        index.#files.set(path, known);
        continue;
      }
      if (++read % FILES_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const entries = index.#readFile(path, symbols.symbolsIn(path) ?? [], files);
      if (stamp !== '') index.#files.set(path, { stamp, entries });
    }
    return index;
  }

  #readFile(path: string, symbols: SymbolInfo[], files: ProjectFiles): DocEntry[] {
    const defined = symbols.filter((symbol) => DOCUMENTED.has(symbol.kind));
    if (defined.length === 0) return [];
    const text = files.text(path);
    if (text === undefined) return [];
    const lines = text.split('\n');
    const entries: DocEntry[] = [];
    for (const symbol of defined) {
      const doc = docOf(lines, symbol);
      if (doc === '') continue;
      const summary = firstSentence(doc);
      const entry = {
        symbol,
        path,
        summary: wordsOf(summary).filter(meaningful),
        doc: wordsOf(doc.slice(summary.length)).filter(meaningful).slice(0, MAX_DOC_WORDS),
      };
      entries.push(entry);
      this.#add(entry);
    }
    return entries;
  }

  #add(entry: DocEntry): void {
    const id = this.entries.push(entry) - 1;
    this.#byPlace.set(placeOf(entry.path, entry.symbol), id);
    for (const word of new Set([...entry.summary, ...entry.doc])) {
      let list = this.#postings.get(word);
      if (!list) this.#postings.set(word, (list = []));
      list.push(id);
    }
  }

  /**
   * The `limit` entries whose docs hold the most of `words` (stemmed, each with what it weighs),
   * the rarer words counting more and a word in the summary twice. A word in more than a fifth of
   * the docs (and more than COMMON_FLOOR) gathers nothing; it still counts when the candidates
   * are ranked.
   */
  best(words: Map<string, number>, limit: number): DocEntry[] {
    const total = this.entries.length;
    const scores = new Map<number, number>();
    for (const [word, factor] of words) {
      const ids = this.#postings.get(word);
      if (!ids || ids.length > Math.max(total / 5, COMMON_FLOOR)) continue;
      const weight = factor * Math.log(1 + (total - ids.length + 0.5) / (ids.length + 0.5));
      for (const id of ids) scores.set(id, (scores.get(id) ?? 0) + weight * (this.entries[id]!.summary.includes(word) ? 2 : 1));
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([id]) => this.entries[id]!);
  }

  /** The doc of one definition, if it has one. */
  of(path: string, symbol: SymbolInfo): DocEntry | undefined {
    const id = this.#byPlace.get(placeOf(path, symbol));
    return id === undefined ? undefined : this.entries[id];
  }
}

function placeOf(path: string, symbol: SymbolInfo): string {
  return `${path}\0${symbol.line}\0${symbol.name}`;
}

/** The doc indexes of projects' symbols as they are now, being built or built, by project and generation. */
const kept = new Map<string, Promise<DocIndex>>();

/** The doc index of a project's symbols as they are now: built on first use (callers meanwhile share the build), kept per generation. */
export function docIndexOf(root: string, symbolsStamp: string, symbols: ProjectSymbols): Promise<DocIndex> {
  const key = `${root}\0${symbolsStamp}`;
  let index = kept.get(key);
  if (index) {
    kept.delete(key);
    kept.set(key, index);
    return index;
  }
  // One generation a project: the older one goes, and lends the new one the docs of files unchanged since.
  let previous: Promise<DocIndex> | undefined;
  for (const [other, older] of kept) {
    if (!other.startsWith(`${root}\0`)) continue;
    previous = older;
    kept.delete(other);
  }
  index = (previous ?? Promise.resolve(undefined)).catch(() => undefined).then((older) => DocIndex.build(root, symbols, older));
  kept.set(key, index);
  // A build that failed is not kept: the next call tries again.
  index.catch(() => kept.get(key) === index && kept.delete(key));
  for (const old of kept.keys()) {
    if (kept.size <= KEPT_INDEXES) break;
    kept.delete(old);
  }
  return index;
}
