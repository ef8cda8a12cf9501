/**
 * The definitions of the files a question's candidates come from, each file read once per
 * question, and what they say of one another: the type a member belongs to (a type is found by
 * its members), and whether a function sits inside another (a closure, private by its scope).
 */
import type { SymbolInfo } from '../../index/symbols/index.js';
import type { ProjectSymbols } from '../../workspace/project.js';

/**
 * A type found by its members: a question that says what a type's methods are called and do
 * ("acquire and release permits") may hold no word of the type's own name or doc (`Turnstile`).
 * The types of the best-ranked members join the candidates (typeOf), and a type ranks at least
 * this share of its best member's score: after that member, never above it for the member's
 * words alone (bench/RESULTS.md lists the shares tried).
 */
export const MEMBER_SHARE = 0.5;

const TYPE_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'enum', 'record', 'union', 'type']);
/** A namespace (C#, C++, TypeScript, Rust's `mod`) holds a whole file, and is no type; Ruby's module is one (`Open3`, `FileUtils`). */
const TYPE_MODULE_LANGUAGES = new Set(['ruby']);
const FUNCTION_KINDS = new Set(['function', 'method']);

function isType(symbol: SymbolInfo): boolean {
  return TYPE_KINDS.has(symbol.kind) || (symbol.kind === 'module' && TYPE_MODULE_LANGUAGES.has(symbol.language));
}

/** A file's types: by qualified name, and by name (the first of a name). */
interface Types {
  qualified: Map<string, SymbolInfo>;
  named: Map<string, SymbolInfo>;
}

export class FileSymbols {
  readonly #symbols: ProjectSymbols;
  readonly #files = new Map<string, SymbolInfo[]>();
  readonly #types = new Map<string, Types>();
  readonly #functions = new Map<string, Map<string, SymbolInfo>>();

  constructor(symbols: ProjectSymbols) {
    this.#symbols = symbols;
  }

  /** The definitions of `path`. */
  in(path: string): SymbolInfo[] {
    let found = this.#files.get(path);
    if (!found) this.#files.set(path, (found = this.#symbols.symbolsIn(path) ?? []));
    return found;
  }

  /**
   * The type `member` of `path` belongs to: the type of its file whose qualified name is the
   * member's parent, else the one named as the parent's last part (`Mutex` of `Mutex<T>::lock`,
   * `Reader` of `bufio.Reader`).
   */
  typeOf(member: SymbolInfo, path: string): SymbolInfo | undefined {
    const { parent } = member;
    if (!parent) return undefined;
    let types = this.#types.get(path);
    if (!types) {
      types = { qualified: new Map(), named: new Map() };
      for (const symbol of this.in(path)) {
        if (!isType(symbol)) continue;
        types.qualified.set(symbol.qualifiedName, symbol);
        if (!types.named.has(symbol.name)) types.named.set(symbol.name, symbol);
      }
      this.#types.set(path, types);
    }
    const type = types.qualified.get(parent) ?? types.named.get(parent.replace(/<.*$/, '').split(/::|\./).pop()!);
    return type === member ? undefined : type;
  }

  /**
   * Whether `symbol` of `path` is a function inside a function of the same file: its parent's
   * body holds it. A method's parent is its type (only a `function` with a parent is looked up),
   * and a function assigned to another's property outside its body (`Foo.create = function`)
   * is not inside it.
   */
  nested(symbol: SymbolInfo, path: string): boolean {
    if (!symbol.parent || symbol.kind !== 'function') return false;
    let functions = this.#functions.get(path);
    if (!functions) {
      functions = new Map();
      for (const one of this.in(path)) if (FUNCTION_KINDS.has(one.kind) && !functions.has(one.qualifiedName)) functions.set(one.qualifiedName, one);
      this.#functions.set(path, functions);
    }
    const parent = functions.get(symbol.parent);
    return parent !== undefined && parent.line <= symbol.line && symbol.endLine <= parent.endLine;
  }
}
