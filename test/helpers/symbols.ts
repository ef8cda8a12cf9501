/** Every live file's symbols and references, read back from a project's symbol store (for tests that compare). */
import { IndexStore } from '../../src/index/store/store.js';
import type { FileSymbols } from '../../src/index/symbols/lookup.js';
import { SymbolIndex } from '../../src/index/symbols/symbol-index.js';
import type { SymbolInfo } from '../../src/index/symbols/types.js';

/** `start-end kind qualified.name < parent`, one line a symbol: the format of test/fixtures/symbols/*.symbols. */
export function describeSymbols(symbols: SymbolInfo[]): string[] {
  return symbols.map((symbol) => `${symbol.line}-${symbol.endLine} ${symbol.kind} ${symbol.qualifiedName}${symbol.parent ? ` < ${symbol.parent}` : ''}`);
}

export function storedSymbols(root: string, home: string): FileSymbols[] {
  const index = SymbolIndex.open(new IndexStore(root, home));
  if (!index) return [];
  try {
    return index.paths.map((path) => {
      const place = index.place(path)!;
      const segment = index.segments[place.segment]!;
      return {
        path,
        hash: segment.hash(place.file),
        symbols: index.symbolsIn(path)!,
        references: index.referencesIn(path).map(({ path: _path, ...reference }) => reference),
      };
    });
  } finally {
    index.close();
  }
}
