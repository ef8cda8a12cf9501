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

const TYPE_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'enum', 'record', 'union', 'type', 'module']);
const FUNCTION_KINDS = new Set(['function', 'method']);

export class FileSymbols {
  readonly #symbols: ProjectSymbols;
  readonly #files = new Map<string, SymbolInfo[]>();
  readonly #types = new Map<string, Map<string, SymbolInfo>>();
  readonly #functions = new Map<string, Set<string>>();

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
   * The type `member` of `path` belongs to: the type of its file named as its parent's last part
   * (`Mutex` of `Mutex<T>::lock`, `Reader` of `bufio.Reader`).
   */
  typeOf(member: SymbolInfo, path: string): SymbolInfo | undefined {
    if (!member.parent) return undefined;
    let types = this.#types.get(path);
    if (!types) {
      types = new Map();
      for (const symbol of this.in(path)) if (TYPE_KINDS.has(symbol.kind) && !types.has(symbol.name)) types.set(symbol.name, symbol);
      this.#types.set(path, types);
    }
    const type = types.get(
      member.parent
        .split(/::|\.|#/)
        .pop()!
        .replace(/<.*$/, ''),
    );
    return type === member ? undefined : type;
  }

  /**
   * Whether `symbol` of `path` is a function whose parent is a function of the same file. A
   * method's parent is its type: only a `function` with a parent is looked up.
   */
  nested(symbol: SymbolInfo, path: string): boolean {
    if (!symbol.parent || symbol.kind !== 'function') return false;
    let functions = this.#functions.get(path);
    if (!functions) {
      functions = new Set(this.in(path).flatMap((one) => (FUNCTION_KINDS.has(one.kind) ? [one.qualifiedName] : [])));
      this.#functions.set(path, functions);
    }
    return functions.has(symbol.parent);
  }
}
