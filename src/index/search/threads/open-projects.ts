/**
 * The projects a search thread holds open (search-thread.ts): each one's index reader and
 * symbols, opened again when a commit swapped them, and the least recently searched closed first
 * once the thread's budget of open files is spent.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentCache } from '../content-cache.js';
import { IndexReader } from '../reader.js';
import { fileStamp, IndexStore } from '../../store/store.js';
import { SymbolIndex, symbolsStamp } from '../../symbols/index.js';
import type { RankingSymbols } from '../ranking.js';

/**
 * One project as a thread holds it open: its reader, opened again when a sync or build swapped the
 * manifest (renamed into place, so its stamp changes), and its symbols for ranking, opened again
 * when the symbol phase committed. The segments are opened lazily (header and directory; a posting
 * list when a query needs it, from the page cache): no thread holds a copy of the postings.
 */
export class OpenProject {
  readonly #root: string;
  readonly #store: IndexStore;
  readonly #cache: ContentCache;
  #reader: IndexReader | undefined;
  #seen = '';
  #symbols: SymbolIndex | undefined;
  #symbolsSeen: string | undefined;

  constructor(root: string, home: string | undefined, cache: ContentCache) {
    this.#root = root;
    this.#store = new IndexStore(root, home);
    this.#cache = cache;
  }

  /**
   * The reader of the index as it is now; NotIndexedError when there is none. `given`: the
   * manifest's stamp as the caller read it, trusted when it is the one open (no stat).
   */
  reader(given?: string): IndexReader {
    if (this.#reader && given !== undefined && given === this.#seen) return this.#reader;
    const stamp = fileStamp(this.#store.manifestPath);
    if (!this.#reader || stamp !== this.#seen) {
      // A sync saw files change: every cached text is checked again before its next use.
      if (this.#reader) this.#cache.recheckAll();
      const next = IndexReader.open(this.#root, undefined, { store: this.#store, cache: this.#cache, lazy: true });
      this.#reader?.close();
      this.#reader = next;
      this.#seen = stamp;
    }
    return this.#reader;
  }

  /**
   * The symbols, for ranking; none before the first symbol phase, or when they cannot be read
   * (ranked by text alone, then). `given`: their stamp as the caller read it, trusted when it is
   * the one open (no stat).
   */
  symbols(given?: string): RankingSymbols | undefined {
    if (given !== undefined && given === this.#symbolsSeen) return this.#symbols;
    const stamp = symbolsStamp(this.#store);
    if (stamp !== this.#symbolsSeen) {
      // A ranking runs to its end before the next message: nothing still holds the old generation.
      this.#symbols?.close();
      this.#symbols = undefined;
      this.#symbolsSeen = stamp;
      try {
        this.#symbols = SymbolIndex.open(this.#store, { present: (path) => existsSync(join(this.#root, path)) });
      } catch {
        this.#symbols = undefined;
      }
    }
    return this.#symbols;
  }

  /** Files held open: one per segment of the reader and of the symbols. */
  get openFiles(): number {
    return (this.#reader?.openFiles ?? 0) + (this.#symbols?.segments.length ?? 0);
  }

  close(): void {
    this.#reader?.close();
    this.#symbols?.close();
    this.#reader = undefined;
    this.#symbols = undefined;
    this.#seen = '';
    this.#symbolsSeen = undefined;
  }
}

/** The projects a thread holds open, in use order, within its budget of open files. */
export class OpenProjects {
  readonly #byRoot = new Map<string, OpenProject>();
  readonly #home: string | undefined;
  readonly #cache: ContentCache;
  readonly #maxFiles: number;

  constructor(home: string | undefined, cache: ContentCache, maxFiles: number) {
    this.#home = home;
    this.#cache = cache;
    this.#maxFiles = maxFiles;
  }

  /** Index files this thread may hold open. */
  get maxFiles(): number {
    return this.#maxFiles;
  }

  /** The project at `root`, opened if it was not, and now the most recently used. */
  get(root: string): OpenProject {
    let project = this.#byRoot.get(root);
    if (project) this.#byRoot.delete(root);
    else project = new OpenProject(root, this.#home, this.#cache);
    this.#byRoot.set(root, project);
    return project;
  }

  /** Closes the least recently used projects until the files held fit the budget (the one just used stays). */
  trim(): void {
    let files = 0;
    for (const project of this.#byRoot.values()) files += project.openFiles;
    for (const [root, project] of this.#byRoot) {
      if (files <= this.#maxFiles || this.#byRoot.size <= 1) break;
      files -= project.openFiles;
      project.close();
      this.#byRoot.delete(root);
    }
  }

  /** A project the server let go of: its files closed now. */
  forget(root: string): void {
    this.#byRoot.get(root)?.close();
    this.#byRoot.delete(root);
  }
}
