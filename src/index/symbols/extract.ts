/**
 * Symbols from source with web-tree-sitter and the tag queries: name, kind, range, parent and
 * qualified name, a one-line signature; plus call and import references. Trees are deleted
 * after use: wasm memory is not garbage-collected.
 */
import { Language, Parser, Query, type Node } from 'web-tree-sitter';
import { useBaselineWasm } from '../../platform/baseline-wasm.js';
import { cutCalls, skeletonOf } from './skeleton/index.js';
import { GRAMMARS, wasmSource } from './grammars.js';
import { LineIndex } from '../text/line-index.js';
import { qualifiedSeparator } from './segment/index.js';
import { TAG_QUERIES } from './tags.js';

import type { ReferenceInfo, SymbolInfo, SymbolKind } from './types.js';

const MAX_SIGNATURE = 200;
/** Kinds that make what they contain a member (a function in a class is a method). */
const TYPES = new Set(['class', 'interface', 'impl', 'enum', 'struct', 'union', 'record', 'annotation']);
const RECEIVER_IS_TYPE = new Set(['go', 'cpp', 'ruby']);
/**
 * A keyword captured as a name stands for the name the language gives it: Kotlin's unnamed
 * `companion object` is `Companion`, TypeScript's construct signature `new`.
 */
const KEYWORD_NAMES: Record<string, string> = { companion: 'Companion', new: 'new' };
/** Kinds whose variables are locals, not symbols. */
const LOCAL_HOLDERS = new Set(['function', 'method']);
/** When the same name is captured by two patterns, the more specific kind wins. */
const SPECIFICITY: Record<string, number> = { impl: 0, variable: 1, constant: 2, type: 3, interface: 10, enum: 10 };

interface Definition {
  name: string;
  /** Where the name starts: two patterns capturing the same name are one definition. */
  nameStart: number;
  kind: string;
  /** The definition's range in the source (UTF-16 indices), read once: each read crosses into wasm. */
  start: number;
  end: number;
  /** The type a definition declared outside it belongs to (a Go method's receiver type): its parent. */
  receiver?: string;
  /** A preprocessor definition belongs to no scope, wherever it stands. */
  unscoped?: boolean;
  /** Named after a keyword (KEYWORD_NAMES): the fallback when the definition has no name of its own. */
  keywordName?: boolean;
}

interface LoadedLanguage {
  language: Language;
  /** Definitions and references in one query: one pass over the tree. */
  all: Query;
  /** Definitions alone, compiled on first use (an outline needs no references). */
  definitions: Query | undefined;
  definitionSource: string;
}

let initialized: Promise<void> | undefined;

export class SymbolExtractor {
  readonly #parser: Parser;
  readonly #languages = new Map<string, LoadedLanguage>();

  private constructor(parser: Parser) {
    this.#parser = parser;
  }

  static async create(): Promise<SymbolExtractor> {
    if (!initialized) {
      useBaselineWasm();
      const runtime = wasmSource('web-tree-sitter', 'tree-sitter.wasm');
      initialized = Parser.init(typeof runtime === 'string' ? { locateFile: () => runtime } : { wasmBinary: runtime });
    }
    await initialized;
    return new SymbolExtractor(new Parser());
  }

  static supports(language: string | undefined): boolean {
    return language !== undefined && language in GRAMMARS && language in TAG_QUERIES;
  }

  /**
   * `references: false` skips call and import captures, a large part of the query cost.
   * `whole: true` parses the whole file instead of its skeleton (tests and benches compare the two).
   */
  async extract(
    language: string,
    source: string,
    options: { references?: boolean; whole?: boolean } = {},
  ): Promise<{ symbols: SymbolInfo[]; references: ReferenceInfo[] }> {
    const loaded = await this.#load(language);
    this.#parser.setLanguage(loaded.language);
    // Parsed as a skeleton (function bodies cut: skeleton-map.ts), indices mapped back to the source.
    const skeleton = options.whole ? undefined : skeletonOf(language, source);
    const toStart = skeleton ? skeleton.toSource : (index: number) => index;
    const toEnd = skeleton ? skeleton.toSourceEnd : (index: number) => index;
    const tree = this.#parser.parse(skeleton?.text ?? source);
    if (!tree) return { symbols: [], references: [] };
    const lines = new LineIndex(source);
    try {
      const definitions: Definition[] = [];
      const references: ReferenceInfo[] = [];
      let oldStyle = false;
      const query = options.references === false ? (loaded.definitions ??= new Query(loaded.language, loaded.definitionSource)) : loaded.all;
      for (const match of query.matches(tree.rootNode)) {
        let nameNode: Node | undefined;
        let receiver: string | undefined;
        let outer: { name: string; node: Node } | undefined;
        for (const capture of match.captures) {
          if (capture.name === 'name') nameNode ??= capture.node;
          else if (capture.name === 'receiver') receiver ??= capture.node.text;
          else outer ??= capture;
        }
        if (!nameNode || !outer) continue;
        const dot = outer.name.indexOf('.');
        const role = outer.name.slice(0, dot);
        const kind = outer.name.slice(dot + 1);
        const nameStart = toStart(nameNode.startIndex);
        if (role === 'definition') {
          if (skeleton && language === 'c' && !oldStyle && outer.node.type === 'function_definition')
            oldStyle = readsOldStyle(skeleton.text, nameNode.endIndex, outer.node.endIndex);
          const start = skeleton ? skeleton.toDefinitionStart(outer.node.startIndex) : outer.node.startIndex;
          // PHP's `namespace A;` (no braces) holds what follows, up to the next namespace.
          const end =
            outer.node.type === 'namespace_definition' && !outer.node.childForFieldName('body')
              ? namespaceEnd(outer.node, source.length, toStart)
              : toEnd(outer.node.endIndex);
          const keywordName = KEYWORD_NAMES[nameNode.type];
          const definition: Definition = { name: keywordName ?? nameNode.text, nameStart, kind, start, end: trimEnd(source, start, end) };
          if (keywordName !== undefined) definition.keywordName = true;
          // Ruby's `class A::B`: B's parent is A, spelt with the qualified names' separator.
          if (receiver !== undefined) definition.receiver = language === 'ruby' ? receiver.replaceAll('::', qualifiedSeparator(language)) : receiver;
          if (outer.node.type.startsWith('preproc_')) definition.unscoped = true;
          definitions.push(definition);
        } else
          references.push({ name: nameNode.text, kind: kind === 'import' ? 'import' : 'call', line: lines.line(nameStart), column: lines.column(nameStart) });
      }
      if (skeleton && options.references !== false) {
        cutCalls(language, source, skeleton, (name, index) => references.push({ name, kind: 'call', line: lines.line(index), column: lines.column(index) }));
        references.sort((a, b) => a.line - b.line || a.column - b.column);
      }
      const symbols = this.#shape(dedupe(definitions), language, source, lines);
      if (oldStyle) {
        // tree-sitter's recovery from a macro it cannot read may take what follows for an old-style
        // definition's parameter declarations, on to a later body. A whole parse recovers
        // elsewhere: the reading that finds more is kept.
        const whole = await this.extract(language, source, { ...options, whole: true });
        if (whole.symbols.length > symbols.length) return whole;
      }
      return { symbols, references };
    } finally {
      tree.delete();
    }
  }

  async #load(language: string): Promise<LoadedLanguage> {
    const cached = this.#languages.get(language);
    if (cached) return cached;
    const grammar = GRAMMARS[language];
    const tags = TAG_QUERIES[language];
    if (!grammar || !tags) throw new Error(`No symbol support for ${language}`);
    const loaded = await Language.load(wasmSource(grammar.pkg, grammar.file));
    // Patterns are one a line: the definitions alone are the lines without a reference capture.
    const lines = tags.split('\n').filter((line) => line.trim() !== '');
    const entry: LoadedLanguage = {
      language: loaded,
      all: new Query(loaded, lines.join('\n')),
      definitions: undefined,
      definitionSource: lines.filter((line) => !line.includes('@reference.')).join('\n'),
    };
    this.#languages.set(language, entry);
    return entry;
  }

  #shape(definitions: Definition[], language: string, source: string, lines: LineIndex): SymbolInfo[] {
    // Sorted by start, each definition's parent is the innermost earlier one that contains it.
    definitions.sort((a, b) => a.start - b.start || b.end - a.end);
    const stack: Array<{ definition: Definition; qualified: string }> = [];
    const symbols: SymbolInfo[] = [];
    const separator = qualifiedSeparator(language);
    for (const definition of definitions) {
      // What ends before this one ends does not hold it; nor does a sibling of the same range (`var a, b`).
      while (stack.length > 0 && (stack.at(-1)!.definition.end < definition.end || sameRange(stack.at(-1)!.definition, definition))) stack.pop();
      // The parent is the innermost enclosing definition of any kind (a function nested in a
      // function too), as ctags scopes it; a receiver declared outside its type is named after it.
      const enclosing = definition.unscoped ? undefined : stack.at(-1);
      if (LOCAL_HOLDERS.has(enclosing?.definition.kind ?? '') && (definition.kind === 'variable' || definition.kind === 'constant')) continue;
      const name = definition.name;
      const receiver = definition.receiver;
      const parentName = receiver === undefined ? enclosing?.qualified : enclosing ? `${enclosing.qualified}${separator}${receiver}` : receiver;
      const qualified = parentName ? `${parentName}${separator}${name}` : name;
      stack.push({ definition, qualified });
      if (definition.kind === 'impl') continue;
      let kind = definition.kind as SymbolKind;
      // A receiver is a type in Go, C++ and Ruby; Lua's `M.f` and JavaScript's `a.b.f = function`
      // are functions kept in a table or object (Lua's `M:f` is captured as a method).
      const inType = (receiver !== undefined && RECEIVER_IS_TYPE.has(language)) || (enclosing !== undefined && TYPES.has(enclosing.definition.kind));
      if (kind === 'function' && inType) kind = 'method';
      // Ruby spells every function `def`; outside a class or module it is a plain function.
      if (kind === 'method' && !inType && language === 'ruby') kind = 'function';
      if (kind === 'variable' && /^\s*const\b/.test(source.slice(definition.start, Math.min(definition.end, definition.start + 256)))) kind = 'constant';
      const symbol: SymbolInfo = {
        name,
        kind,
        language,
        line: lines.line(definition.start),
        column: lines.column(definition.start),
        endLine: lines.line(definition.end),
        endColumn: lines.column(definition.end),
        qualifiedName: qualified,
        signature: signatureOf(declarationLine(source, definition.start, definition.end)),
      };
      if (parentName) symbol.parent = parentName;
      symbols.push(symbol);
    }
    return symbols;
  }
}

/**
 * Whether a C function definition read from `text` has old-style parameter declarations
 * (`f(a) int a; {`): a `;` between its name and its body's `{`. Read from the text, not the tree:
 * it is asked of every function definition, and a parameter list holds no `;`.
 */
function readsOldStyle(text: string, nameEnd: number, definitionEnd: number): boolean {
  const body = text.indexOf('{', nameEnd);
  return body >= 0 && body < definitionEnd && text.lastIndexOf(';', body) > nameEnd;
}

/** Where a namespace without braces ends, in the source: the next namespace's start (mapped back from the skeleton), or the file's end. */
function namespaceEnd(node: Node, fileEnd: number, toSource: (index: number) => number): number {
  for (let next = node.nextNamedSibling; next; next = next.nextNamedSibling) if (next.type === 'namespace_definition') return toSource(next.startIndex);
  return fileEnd;
}

function sameRange(a: Definition, b: Definition): boolean {
  return a.start === b.start && a.end === b.end;
}

function dedupe(definitions: Definition[]): Definition[] {
  const byName = new Map<number, Definition>();
  for (const definition of definitions) {
    const key = definition.nameStart;
    const existing = byName.get(key);
    const rank = (entry: Definition): number => (SPECIFICITY[entry.kind] ?? 9) * 2 + (entry.receiver === undefined ? 0 : 1);
    if (!existing || rank(definition) > rank(existing)) byName.set(key, definition);
  }
  const kept = [...byName.values()];
  // A keyword's name only where the definition has none of its own (`companion object Factory` is Factory).
  const named = new Set(kept.filter((definition) => !definition.keywordName).map((definition) => `${definition.start}:${definition.end}`));
  return kept.filter((definition) => !definition.keywordName || !named.has(`${definition.start}:${definition.end}`));
}

/** A node's end without the line break or blanks some grammars include (a `#define` ends on its own line). */
function trimEnd(source: string, start: number, end: number): number {
  while (end > start + 1 && /\s/.test(source[end - 1]!)) end--;
  return end;
}

/** The first line of source[start, end): without slicing the whole definition (a class can be thousands of lines). */
function firstLine(source: string, start: number, end: number): string {
  const newline = source.indexOf('\n', start);
  return source.slice(start, newline < 0 || newline > end ? end : newline);
}

/**
 * Whether a line is only annotations or attributes (Java's `@Override`, C#'s `[Obsolete]`, Rust's
 * `#[inline]`), no declaration. Read token by token, brackets balanced: a pattern over the whole
 * line backtracked without end on a line of many attributes.
 */
function onlyAnnotations(line: string): boolean {
  let at = 0;
  let tokens = 0;
  const skipSpace = (): void => {
    while (at < line.length && /\s/.test(line[at]!)) at++;
  };
  /** Past the bracket opened at `at` and its match; false when it never closes on this line. */
  const balanced = (open: string, close: string): boolean => {
    let depth = 0;
    for (; at < line.length; at++) {
      if (line[at] === open) depth++;
      else if (line[at] === close && --depth === 0) {
        at++;
        return true;
      }
    }
    return false;
  };
  for (skipSpace(); at < line.length; skipSpace()) {
    if (line[at] === '@') {
      const name = /^@[\w.]+/.exec(line.slice(at));
      if (!name) return false;
      at += name[0].length;
      skipSpace();
      if (line[at] === '(' && !balanced('(', ')')) return false;
    } else if (line.startsWith('#[', at) || line.startsWith('#![', at)) {
      at = line.indexOf('[', at);
      if (!balanced('[', ']')) return false;
    } else if (line[at] === '[') {
      if (!balanced('[', ']')) return false;
    } else return false;
    tokens++;
  }
  return tokens > 0;
}

/**
 * The definition's first line that declares it: past the lines of annotations above a Java or C#
 * declaration, which its range includes (a signature of `@Override` says nothing).
 */
function declarationLine(source: string, start: number, end: number): string {
  let line = firstLine(source, start, end);
  while (onlyAnnotations(line)) {
    const next = source.indexOf('\n', start) + 1;
    if (next <= 0 || next >= end) break;
    start = next;
    line = firstLine(source, start, end);
  }
  return line;
}

/** The definition's first line, or up to its body, on one line. */
function signatureOf(line: string): string {
  const firstLine = line.trim();
  const body = firstLine.search(/\s*[{:]\s*$/);
  const signature = body > 0 ? firstLine.slice(0, body) : firstLine;
  return signature.length > MAX_SIGNATURE ? `${signature.slice(0, MAX_SIGNATURE - 1)}…` : signature;
}
