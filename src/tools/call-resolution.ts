/**
 * How sure `find_related_symbols` is of a call: a call names a function only by its name, and a
 * name can have several definitions, or none in the project (a built-in, a library). Each call
 * gets the reason its definition was chosen, so a guess is never shown as a fact.
 */
import { dirname } from 'node:path';
import type { SymbolInfo } from '../index/symbols/index.js';

export const RESOLUTIONS = ['same_file', 'imported', 'receiver', 'unique_name', 'name_only', 'builtin', 'unresolved'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** What each resolution means, for the tool's description and the reader. */
export const RESOLUTION_MEANINGS: Record<Resolution, string> = {
  same_file: 'defined in the same file',
  imported: "defined in a module the caller's file imports",
  receiver: 'a method of the enclosing class, called through self/this',
  unique_name: 'the only definition of that name in the project',
  name_only: 'a guess by name among several definitions',
  builtin: 'a built-in of the language, defined nowhere in the project',
  unresolved: 'no definition of that name in the project',
};

const BUILTINS: Record<string, Set<string>> = {
  python: new Set(
    (
      'abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict dir divmod enumerate eval ' +
      'exec filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map ' +
      'max memoryview min next object oct open ord pow print property range repr reversed round set setattr slice sorted staticmethod str ' +
      'sum super tuple type vars zip __import__ ArithmeticError AssertionError AttributeError BaseException BlockingIOError ' +
      'BrokenPipeError BufferError ConnectionError EOFError EnvironmentError Exception FileExistsError FileNotFoundError ' +
      'FloatingPointError GeneratorExit IOError ImportError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt ' +
      'LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError ' +
      'PermissionError RecursionError ReferenceError RuntimeError StopAsyncIteration StopIteration SyntaxError SystemError ' +
      'SystemExit TimeoutError TypeError UnicodeDecodeError UnicodeEncodeError UnicodeError ValueError ZeroDivisionError ' +
      'DeprecationWarning UserWarning Warning'
    ).split(' '),
  ),
  javascript: new Set(
    (
      'Array Boolean Date Error JSON Map Math Number Object Promise Proxy Reflect RegExp Set String Symbol TypeError RangeError WeakMap ' +
      'WeakSet parseInt parseFloat isNaN isFinite setTimeout clearTimeout setInterval clearInterval queueMicrotask structuredClone require fetch'
    ).split(' '),
  ),
  go: new Set('append cap clear close complex copy delete imag len make max min new panic print println real recover'.split(' ')),
};
BUILTINS.typescript = BUILTINS.javascript!;
BUILTINS.tsx = BUILTINS.javascript!;

export interface CallSite {
  name: string;
  /** The file the call is in, and the text of its line (to see `x.f()` apart from `f()`). */
  path: string;
  lineText: string;
  column: number;
  language: string;
  /** The modules the calling file imports, as written (`os.path`, `./store`, `"net/http"`). */
  imports: string[];
  /** The class or other type that encloses the call, if any. */
  enclosingType: string | undefined;
}

export interface Resolved {
  resolution: Resolution;
  definition?: { symbol: SymbolInfo; path: string };
  /** How many definitions share the name (name_only). */
  candidates?: number;
}

/** The receiver written before the called name: `self` in `self.f()`, `os.path` in `os.path.join()`, undefined for a bare `f()`. */
function receiverOf(lineText: string, column: number): string | undefined {
  const before = lineText.slice(0, Math.max(0, column - 1)).trimEnd();
  if (!before.endsWith('.') && !before.endsWith('->') && !before.endsWith('::')) return undefined;
  const match = /([\w$.]+)\s*(?:\.|->|::)$/.exec(before);
  return match?.[1] ?? '';
}

/** Whether a definition's file is what an import names (by whole path segments: `os` is not `pos`). */
function inModule(path: string, imported: string): boolean {
  const wanted = imported
    .replace(/^["'<]|["'>]$/g, '')
    .replace(/^\.\/|^(\.\.\/)+/, '')
    .replace(/\.(js|ts|mjs|py)$/, '');
  if (wanted === '') return false;
  const segments = wanted.split(/[./\\:]+/).filter(Boolean);
  const fileSegments = path.replace(/\.[^./]+$/, '').split('/');
  const joined = `/${fileSegments.join('/')}/`;
  // The import's segments in a row, ending at the file or the directory that holds it.
  const tail = `/${segments.join('/')}/`;
  // A file in the imported directory counts too (a Python package's modules, its __init__.py).
  return joined.endsWith(tail) || `/${dirname(path)}/`.endsWith(tail);
}

/** The definition a call means, and how sure that is. */
export function resolveCall(site: CallSite, definitions: Array<{ symbol: SymbolInfo; path: string }>): Resolved {
  const receiver = receiverOf(site.lineText, site.column);
  const throughSelf = receiver === 'self' || receiver === 'this' || receiver === 'cls';
  // A bare call names a function, not a method (methods need their receiver in these languages).
  // And `x.f()` through an object (not self/this, not an imported module) names a method, not a plain function.
  const throughModule = receiver !== undefined && site.imports.some((module) => namesOfImport(module).includes(receiver));
  const throughObject = receiver !== undefined && !throughSelf && !throughModule && NEEDS_RECEIVER.has(site.language);
  const candidates = definitions.filter(
    (entry) =>
      entry.symbol.name === site.name &&
      (receiver !== undefined || entry.symbol.kind !== 'method' || !NEEDS_RECEIVER.has(site.language)) &&
      (!throughObject || entry.symbol.kind === 'method'),
  );
  if (throughSelf && site.enclosingType) {
    const own = candidates.find((entry) => entry.path === site.path && entry.symbol.parent === site.enclosingType);
    if (own) return { resolution: 'receiver', definition: own };
  }
  if (receiver === undefined || throughSelf) {
    const local = candidates.find((entry) => entry.path === site.path);
    if (local) return { resolution: 'same_file', definition: local };
  }
  const imported = candidates.filter((entry) => site.imports.some((module) => inModule(entry.path, module)));
  if (imported.length === 1) return { resolution: 'imported', definition: imported[0]! };
  // A call through a module the file imports that holds no such definition here (`warnings.warn`) is outside the project.
  if (throughModule && imported.length === 0) return { resolution: 'unresolved' };
  if (candidates.length === 0) return { resolution: receiver === undefined && BUILTINS[site.language]?.has(site.name) ? 'builtin' : 'unresolved' };
  if (candidates.length === 1 && !(receiver === undefined && BUILTINS[site.language]?.has(site.name)))
    return { resolution: 'unique_name', definition: candidates[0]! };
  const nearest = [...candidates].sort((a, b) => nearness(a.path, site.path) - nearness(b.path, site.path))[0]!;
  return { resolution: 'name_only', definition: nearest, candidates: candidates.length };
}

/** What code calls an imported module by: `os.path` as written, and Go's `"net/http"` as `http`. */
function namesOfImport(module: string): string[] {
  const bare = module.replace(/^["'<]|["'>]$/g, '');
  return [bare, bare.slice(bare.lastIndexOf('/') + 1)];
}

const NEEDS_RECEIVER = new Set(['python', 'javascript', 'typescript', 'tsx', 'go', 'rust', 'php']);

function nearness(path: string, from: string): number {
  return dirname(path) === dirname(from) ? 0 : 1;
}
