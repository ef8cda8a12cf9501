/**
 * A search worker thread of the pool (pool.ts), seen from inside: it serves any project the
 * server knows. Each request names its project's root; the thread keeps the projects it searched
 * lately open (their index readers and symbols) within a budget of open files, the least recently
 * searched one closed first, and one cache of file text for all of them. So a server with many
 * projects holds a fixed number of threads, files and cached bytes, not some of each per project.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData, type Worker } from 'node:worker_threads';
import { spawnWorker } from '../../../platform/runtime.js';
import { IdleHeapTrimmer } from '../../../platform/idle-heap.js';
import { workerMain } from '../../../platform/worker-main.js';
import { ContentCache } from '../content-cache.js';
import { IndexReader, type SearchQuery } from '../reader.js';
import { directScan } from '../direct-scan.js';
import { fileStamp, IndexStore } from '../../store/store.js';
import { SymbolIndex, symbolsStamp } from '../../symbols/index.js';
import { movedBuffers, pack, packRanked } from '../wire.js';
import { rankSearch, type RankingSymbols } from '../ranking.js';
import { PageBound } from './page-bound.js';
import { mayStopEarly, searchFirstResults } from '../first-page/index.js';
import type { BatchRequest, Reply, SearchRequest, SearchStamps } from './search-worker.js';
import type { PackedResult } from '../wire.js';

const WORKER_ROLE = 'sextant-search';

/**
 * How long a thread trusts a cached file's text without a `stat`: the same files are read by
 * search after search under load, and a stat of every candidate each time is a large part of a
 * selective search (bench/RESULTS.md, load-search). A file edited meanwhile is seen at most this
 * late (and at once after a sync: a new manifest checks every entry again), which is sooner than
 * the index itself learns of the edit.
 */
const CONTENT_FRESH_MS = 500;

/** Young-generation size of a search thread's heap. */
const SEARCH_YOUNG_GENERATION_MB = 8;

/** What a thread is started with: the index home, its share of the text cache, and its share of the open-file budget. */
interface ThreadData {
  role: string;
  home?: string;
  cacheBytes: number;
  openFiles: number;
}

/** Starts a search thread (its replies: search-worker.ts). */
export function spawnSearchThread(data: Omit<ThreadData, 'role'>): Worker {
  // A small young generation: a search's garbage is short-lived, and V8's default semi-spaces
  // cost each worker 20-30 MiB of RSS for no measurable speed (bench/RESULTS.md, #12).
  return spawnWorker(import.meta.url, {
    workerData: { role: WORKER_ROLE, ...data } satisfies ThreadData,
    resourceLimits: { maxYoungGenerationSizeMb: SEARCH_YOUNG_GENERATION_MB },
  });
}

/**
 * One project as a thread holds it open: its reader, opened again when a sync or build swapped the
 * manifest (renamed into place, so its stamp changes), and its symbols for ranking, opened again
 * when the symbol phase committed. The segments are opened lazily (header and directory; a posting
 * list when a query needs it, from the page cache): no thread holds a copy of the postings.
 */
class OpenProject {
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
class OpenProjects {
  readonly #byRoot = new Map<string, OpenProject>();
  readonly #home: string | undefined;
  readonly #cache: ContentCache;
  readonly #maxFiles: number;

  constructor(home: string | undefined, cache: ContentCache, maxFiles: number) {
    this.#home = home;
    this.#cache = cache;
    this.#maxFiles = maxFiles;
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

/**
 * A search of the index, ranked when asked (the pool in ranked order, and the ranking beside it);
 * read only as far as the page asked for needs, where that can be known (first-page/early-page.ts).
 */
function searchIndex(project: OpenProject, request: SearchRequest & { stamps?: SearchStamps }, beyond?: PageBound) {
  const { query, rank, pageEnd, root, stamps } = request;
  const reader = project.reader(stamps?.manifest);
  if (rank && pageEnd !== undefined && mayStopEarly(query, pageEnd)) {
    const started = performance.now();
    const symbols = project.symbols(stamps?.symbols);
    const { result, ranked, seeds, certain } = searchFirstResults(reader, root, symbols, query, pageEnd, beyond?.bound());
    beyond?.add(root, ranked);
    // Ranking as it read is the search's time; the ranking of what it read, after, is ranking's.
    return packRanked(result, ranked, seeds, Math.max(0, performance.now() - started - result.stats.durationMs), certain);
  }
  const result = reader.search(query);
  if (!rank) return pack(result);
  const started = performance.now();
  const { ranked, seeds } = rankSearch(root, project.symbols(stamps?.symbols), query, result.matches);
  return packRanked(result, ranked, seeds, performance.now() - started);
}

/** A failure as the pool reads it back: its stable code, and its message. */
function threadError(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : 'SEXTANT_ERR_SEARCH', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Each search of a batch, ranked, one after another; a failure is that search's own. The batch's
 * searches are of one query in several projects (a search across projects), so what the first
 * found bounds how far the next must read.
 */
function searchBatch(projects: OpenProjects, { id, batch, known }: BatchRequest): { reply: Reply; moved: ArrayBuffer[] } {
  const moved: ArrayBuffer[] = [];
  const bounds = new Map<string, PageBound>();
  const boundOf = (query: SearchQuery, pageEnd: number): PageBound => {
    const shared = `${pageEnd}\0${JSON.stringify(query)}`;
    let bound = bounds.get(shared);
    if (!bound) bounds.set(shared, (bound = new PageBound(pageEnd, known)));
    return bound;
  };
  const results = batch.map(({ root, query, pageEnd, stamps }) => {
    try {
      const request = { id, root, query, rank: true, ...(pageEnd !== undefined && { pageEnd }), ...(stamps && { stamps }) };
      const result: PackedResult = searchIndex(projects.get(root), request, pageEnd === undefined ? undefined : boundOf(query, pageEnd));
      // Within the budget of open files as the batch goes, not only after it.
      projects.trim();
      moved.push(...movedBuffers(result));
      return { result };
    } catch (error) {
      return { error: threadError(error) };
    }
  });
  return { reply: { id, results }, moved };
}

function startThread(): void {
  const { home, cacheBytes, openFiles } = workerData as ThreadData;
  const projects = new OpenProjects(home, new ContentCache(cacheBytes, { freshForMs: CONTENT_FRESH_MS }), openFiles);
  // A thread's heap holds the last searches' garbage until more work comes: trimmed when quiet (idle-heap.ts).
  const heap = new IdleHeapTrimmer();
  parentPort!.on('message', (request: SearchRequest | BatchRequest | { forget: string }) => {
    if ('forget' in request) return projects.forget(request.forget);
    heap.begin();
    try {
      if ('batch' in request) {
        const { reply, moved } = searchBatch(projects, request);
        return parentPort!.postMessage(reply, moved);
      }
      const { id, query, direct, root } = request;
      try {
        const packed = direct ? pack(directScan(root, query)) : searchIndex(projects.get(root), request);
        parentPort!.postMessage({ id, result: packed } satisfies Reply, movedBuffers(packed));
      } catch (error) {
        parentPort!.postMessage({ id, error: threadError(error) } satisfies Reply);
      }
    } finally {
      projects.trim();
      heap.end();
    }
  });
  parentPort!.postMessage({ ready: true, id: 0 } satisfies Reply);
}

workerMain(WORKER_ROLE, startThread);
