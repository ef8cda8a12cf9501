/** A project tree with its text index and symbols built, as an index job leaves them, for tests of search and ranking. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndex } from '../../src/index/build/indexer.js';
import { IndexReader } from '../../src/index/search/index.js';
import { IndexStore } from '../../src/index/store/store.js';
import { buildSymbols } from '../../src/index/symbols/build.js';
import { SymbolIndex } from '../../src/index/symbols/symbol-index.js';
import { projectTree } from './projects.js';

/** Builds (or brings up to date) the text index and the symbols of `root` in `home`. */
export async function indexTree(root: string, home: string): Promise<void> {
  await buildIndex(root, { home });
  const reader = IndexReader.open(root, home);
  try {
    await buildSymbols(root, reader.files, { home });
  } finally {
    reader.close();
  }
}

export interface IndexedTree {
  root: string;
  home: string;
  reader: IndexReader;
  symbols: SymbolIndex;
}

/** Runs `work` on a tree of `files`, indexed, with a reader and the symbols open; removes it all after. */
export async function withIndexedTree<T>(files: Record<string, string>, work: (tree: IndexedTree) => Promise<T> | T): Promise<T> {
  const root = projectTree(files);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    await indexTree(root, home);
    const reader = IndexReader.open(root, home, { lazy: true });
    try {
      const symbols = SymbolIndex.open(new IndexStore(root, home))!;
      try {
        return await work({ root, home, reader, symbols });
      } finally {
        symbols.close();
      }
    } finally {
      reader.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}
