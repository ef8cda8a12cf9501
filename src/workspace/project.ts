/**
 * One known project at run time: its index store, its search workers, its running job, its
 * symbols (loaded once, again when the symbol phase rewrites them), and, once indexed, the
 * watcher that keeps it current.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import { SearchService } from '../index/search-service.js';
import { IndexCorruptError, IndexIncompatibleError, IndexStore, type Manifest } from '../index/store.js';
import { readSymbols, SYMBOLS_META_FILE, type FileSymbols } from '../index/symbols/build.js';
import type { SymbolInfo } from '../index/symbols/extract.js';
import { findSymbols, type FoundSymbol } from '../index/symbols/lookup.js';
import { NameIndex } from '../index/symbols/names.js';
import { ReferenceIndex } from '../index/symbols/references.js';
import { IndexWatcher } from '../index/watcher.js';
import { toolError } from '../tools/error-codes.js';
import { IndexJob, runJob, type JobMode } from './jobs.js';

export type IndexingStatus = 'not_indexed' | 'indexing' | 'ready' | 'failed';

export interface IndexState {
  status: IndexingStatus;
  manifest?: Manifest;
  /** Set when the index on disk is of another format. */
  incompatible?: string;
  /** Set when the index on disk cannot be read (a torn or overwritten manifest). */
  corrupt?: string;
}

export interface ProjectSymbols {
  readonly names: NameIndex | undefined;
  /** Every file's symbols and references (symbols.json): read only where the indexes above are missing. */
  readonly files: FileSymbols[];
  /** One file's definitions, from the name index when there is one; undefined for a file without symbols. */
  symbolsIn(path: string): SymbolInfo[] | undefined;
  /** Definitions named exactly `name` (or with that qualified name). */
  definitions(name: string): Array<{ symbol: SymbolInfo; path: string }>;
  /** Lookup by name: exact, case-insensitive, prefix, fuzzy (see lookup.ts). */
  find(name: string, options: { kind?: string; limit?: number }): FoundSymbol[];
  /** Calls and imports, by file and by name. */
  readonly references: ReferenceIndex;
  /** The files that have symbols, in path order. */
  readonly paths: readonly string[];
}

/** A project's symbols, each part read from disk the first time it is asked for. */
class LoadedSymbols implements ProjectSymbols {
  readonly #store: IndexStore;
  #files: FileSymbols[] | undefined;
  #byPathCache: Map<string, FileSymbols> | undefined;
  #names: { index: NameIndex | undefined } | undefined;
  #references: ReferenceIndex | undefined;

  constructor(store: IndexStore) {
    this.#store = store;
  }

  get files(): FileSymbols[] {
    this.#files ??= readSymbols(this.#store);
    return this.#files;
  }

  get #byPath(): Map<string, FileSymbols> {
    this.#byPathCache ??= new Map(this.files.map((file) => [file.path, file]));
    return this.#byPathCache;
  }

  get names(): NameIndex | undefined {
    this.#names ??= { index: NameIndex.load(this.#store) };
    return this.#names.index;
  }

  get references(): ReferenceIndex {
    // Symbols written before the reference file existed: built from every file's symbols.
    this.#references ??= ReferenceIndex.load(this.#store) ?? ReferenceIndex.fromFiles(this.files);
    return this.#references;
  }

  get paths(): readonly string[] {
    return this.names?.paths ?? this.files.map((file) => file.path);
  }

  symbolsIn(path: string): SymbolInfo[] | undefined {
    const names = this.names;
    if (names) return names.covers(path) ? names.symbolsIn(path) : undefined;
    return this.#byPath.get(path)?.symbols;
  }

  find(name: string, options: { kind?: string; limit?: number }): FoundSymbol[] {
    return this.names ? this.names.find(name, options) : findSymbols(this.files, name, options);
  }

  definitions(name: string): Array<{ symbol: SymbolInfo; path: string }> {
    if (this.names) return this.names.definitions(name);
    return this.files.flatMap((file) => file.symbols.filter((symbol) => symbol.name === name || symbol.qualifiedName === name).map((symbol) => ({ symbol, path: file.path })));
  }
}

export class Project {
  readonly root: string;
  readonly store: IndexStore;
  readonly #home: string | undefined;
  readonly #watch: boolean;
  readonly #logger: Logger | undefined;
  readonly #searchBudgetMs: number | undefined;
  #search: SearchService | undefined;
  #job: IndexJob | undefined;
  /** The last job that ran here, finished or not (index_status shows it). */
  lastJob: IndexJob | undefined;
  #symbols: { stamp: string; value: ProjectSymbols } | undefined;
  #watcher: IndexWatcher | undefined;
  /** Index writers of this process (jobs, the watcher) take turns here; other processes meet the store's lock. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(root: string, options: { home?: string; watch?: boolean; logger?: Logger; searchBudgetMs?: number } = {}) {
    this.root = root;
    this.#home = options.home;
    this.#watch = options.watch ?? false;
    this.#logger = options.logger;
    this.#searchBudgetMs = options.searchBudgetMs;
    this.store = new IndexStore(root, options.home);
  }

  /** The job running in this server, if any. */
  get job(): IndexJob | undefined {
    return this.#job?.running ? this.#job : undefined;
  }

  indexState(): IndexState {
    try {
      const manifest = this.store.readManifest();
      const running = this.job !== undefined || (this.store.runningJob()?.pid ?? process.pid) !== process.pid;
      if (!manifest) return { status: running ? 'indexing' : this.lastJob?.status === 'failed' ? 'failed' : 'not_indexed' };
      return { status: running ? 'indexing' : 'ready', manifest };
    } catch (error) {
      if (error instanceof IndexIncompatibleError) return { status: 'failed', incompatible: error.message };
      if (error instanceof IndexCorruptError) return { status: 'failed', corrupt: error.message };
      throw error;
    }
  }

  /** The index, or the error a tool should answer with. */
  requireIndex(): Manifest {
    const state = this.indexState();
    if (state.incompatible) throw toolError('index_incompatible', state.incompatible, { workspace: this.root });
    if (state.corrupt) throw toolError('index_corrupt', state.corrupt, { workspace: this.root });
    if (!state.manifest) {
      if (this.job) {
        throw toolError('index_not_ready', `Project ${this.root} is being indexed (job ${this.job.id}, ${this.job.percent}%): retry when it is done`, {
          workspace: this.root,
          job_id: this.job.id,
        }, 'Follow the job with index_status, then retry.');
      }
      throw toolError('index_not_ready', `Project detected at ${this.root} but not indexed. Run \`sextant index ${this.root}\` first.`, { workspace: this.root });
    }
    this.#ensureWatcher();
    return state.manifest;
  }

  /** Starts an index or sync job; one at a time per project, in this process or another. */
  startJob(mode: JobMode, options: { force?: boolean } = {}): IndexJob {
    const running = this.job;
    if (running) {
      throw toolError('index_in_progress', `A ${running.mode} job (${running.id}) is already running for ${this.root}: ${running.message}`, { workspace: this.root, job_id: running.id });
    }
    // A live journal of this process is the watcher's sync: the job queues behind it (exclusive).
    const elsewhere = this.store.runningJob();
    if (elsewhere && elsewhere.pid !== process.pid) {
      throw toolError('index_in_progress', `A ${elsewhere.mode} job started by process ${elsewhere.pid} is running for ${this.root}`, { workspace: this.root, pid: elsewhere.pid });
    }
    const state = this.indexState();
    if (state.incompatible && !options.force) throw toolError('index_incompatible', state.incompatible, { workspace: this.root });
    if (state.corrupt && mode === 'sync' && !options.force) throw toolError('index_corrupt', state.corrupt, { workspace: this.root });
    if (mode === 'sync' && !state.manifest && !state.incompatible) mode = 'index'; // nothing to sync from: build
    const work = runJob(mode, this.root, { ...(this.#home ? { home: this.#home } : {}), force: options.force === true });
    const job = new IndexJob(mode, this.root, (running, signal) => this.exclusive(() => work(running, signal)));
    this.#job = job;
    this.lastJob = job;
    void job.finished.then(() => {
      if (job.status === 'completed') this.#ensureWatcher();
      else if (job.status === 'failed') this.#logger?.warning(`Index job ${job.id} for ${this.root} failed: ${job.error?.message}`);
    });
    return job;
  }

  /**
   * Every file's symbols and the name index, each read on first use (a name lookup needs only
   * the name index) and read again whenever the symbol phase rewrote them. The stamp is the
   * counts file, which the symbol phase writes last: keyed on an earlier one, a read between
   * two of its writes could keep an old name index for good.
   */
  symbols(): ProjectSymbols {
    let stamp = '';
    try {
      const stats = statSync(join(this.store.dir, SYMBOLS_META_FILE));
      stamp = `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
    } catch {
      // none yet
    }
    if (this.#symbols?.stamp !== stamp) this.#symbols = { stamp, value: new LoadedSymbols(this.store) };
    return this.#symbols.value;
  }

  /** Runs `task` after every index writer of this process queued before it. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const turn = this.#turn.then(task, task);
    this.#turn = turn.catch(() => undefined);
    return turn;
  }

  get search(): SearchService {
    this.#search ??= new SearchService(this.root, { ...(this.#home ? { home: this.#home } : {}), ...(this.#searchBudgetMs ? { budgetMs: this.#searchBudgetMs } : {}) });
    return this.#search;
  }

  #ensureWatcher(): void {
    if (!this.#watch || this.#watcher) return;
    const options: ConstructorParameters<typeof IndexWatcher>[1] = {
      symbols: true,
      exclusive: (task) => this.exclusive(task),
      onError: (error) => this.#logger?.warning(`Watcher for ${this.root}`, error),
    };
    if (this.#home) options.home = this.#home;
    if (this.#logger) options.logger = this.#logger;
    try {
      this.#watcher = new IndexWatcher(this.root, options);
      this.#watcher.start();
    } catch (error) {
      this.#logger?.warning(`Could not watch ${this.root}; run sync_repo after changes`, error);
      this.#watcher = undefined;
    }
  }

  async close(): Promise<void> {
    this.#job?.cancel('the server is shutting down');
    this.#watcher?.close();
    this.#watcher = undefined;
    await this.#search?.close();
    this.#search = undefined;
  }
}
