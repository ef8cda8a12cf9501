/**
 * One known project at run time: its index store, its search workers, its running job, its
 * symbols (loaded once, again when the symbol phase rewrites them), and, once indexed, the
 * watcher that keeps it current.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { counted, type Activity } from '../platform/idle-heap.js';
import type { Logger } from '../platform/log.js';
import { SearchService, type SearchPool } from '../index/search/threads/index.js';
import { type ChangeFence, fileStamp, IndexCorruptError, IndexIncompatibleError, IndexStore, type Manifest } from '../index/store/index.js';
import { SymbolIndex, symbolsStamp } from '../index/symbols/index.js';
import { IndexWatcher } from '../index/watch/index.js';
import { codedError } from '../errors.js';
import { article, capitalized } from '../wording.js';
import { IndexJob, runJob, type JobMode } from './jobs.js';
import { WatchedStamps } from './watched-stamps.js';

type IndexingStatus = 'not_indexed' | 'indexing' | 'ready' | 'failed';

export interface IndexState {
  status: IndexingStatus;
  manifest?: Manifest;
  /** Set when the index on disk is of another format. */
  incompatible?: string;
  /** Set when the index on disk cannot be read (a torn or overwritten manifest). */
  corrupt?: string;
}

/** The stamps of an index's files read at one moment (Project.stamps). */
export interface IndexStamps {
  readonly manifest: string;
  readonly symbols: string;
  /** The process running a job on the index, if any. */
  readonly jobPid: number | undefined;
}

/** A project's symbols as the tools read them (see SymbolIndex). */
export type ProjectSymbols = Pick<
  SymbolIndex,
  | 'find'
  | 'definitions'
  | 'definitionsNamed'
  | 'symbolsIn'
  | 'visitBriefs'
  | 'symbolOf'
  | 'covers'
  | 'paths'
  | 'referencesIn'
  | 'referencesTo'
  | 'definitionsContaining'
  | 'nameCount'
>;

export class Project {
  readonly root: string;
  readonly store: IndexStore;
  readonly #home: string | undefined;
  readonly #watch: boolean;
  readonly #logger: Logger | undefined;
  readonly #pool: SearchPool | undefined;
  /** The stamps kept while the index folder is unchanged, with the server's change fence. */
  readonly #stamps: WatchedStamps<IndexStamps> | undefined;
  #search: SearchService | undefined;
  #job: IndexJob | undefined;
  /** The last job that ran here, finished or not (index_status shows it). */
  lastJob: IndexJob | undefined;
  #symbols: { stamp: string; value: SymbolIndex | undefined } | undefined;
  #watcher: IndexWatcher | undefined;
  /** Index writers of this process (jobs, the watcher) take turns here; other processes meet the store's lock. */
  #turn: Promise<unknown> = Promise.resolve();
  /** Told when each index writer starts and settles (the server's idle heap trim: idle-heap.ts). */
  readonly #activity: Activity | undefined;

  /** Told of each job this project starts (the status page follows them: ProjectService.onJob). */
  readonly #onJob: ((job: IndexJob) => void) | undefined;

  constructor(
    root: string,
    options: {
      home?: string;
      watch?: boolean;
      logger?: Logger;
      pool?: SearchPool;
      fence?: ChangeFence;
      activity?: Activity;
      onJob?: (job: IndexJob) => void;
    } = {},
  ) {
    this.root = root;
    this.#onJob = options.onJob;
    this.#activity = options.activity;
    this.#home = options.home;
    this.#watch = options.watch ?? false;
    this.#logger = options.logger;
    this.#pool = options.pool;
    this.store = new IndexStore(root, options.home);
    this.#stamps = options.fence && new WatchedStamps(options.fence, this.store);
  }

  /** The job running in this server, if any. */
  get job(): IndexJob | undefined {
    return this.#job?.running ? this.#job : undefined;
  }

  /**
   * The index's files as they are, read once, for a caller that asks several questions of the
   * same moment (a search across projects asks each project for its state, its generation and its
   * symbols). `fenced`: the caller has passed the server's change fence since it began (true only
   * from ChangeFence.passed), so stamps kept while the index folder's watch saw no change still
   * hold (watched-stamps.ts); otherwise they are read now.
   */
  stamps(fenced = false): IndexStamps {
    const read = (): IndexStamps => ({ manifest: fileStamp(this.store.manifestPath), symbols: symbolsStamp(this.store), jobPid: this.store.runningJob()?.pid });
    return fenced && this.#stamps ? this.#stamps.current(read) : read();
  }

  /** `at`: the stamps read once by the caller (stamps()); without them, read now. */
  indexState(at?: IndexStamps): IndexState {
    try {
      const manifest = this.#currentManifest(at?.manifest);
      const runningPid = at ? at.jobPid : this.store.runningJob()?.pid;
      const running = this.job !== undefined || (runningPid ?? process.pid) !== process.pid;
      if (!manifest) return { status: running ? 'indexing' : this.lastJob?.status === 'failed' ? 'failed' : 'not_indexed' };
      return { status: running ? 'indexing' : 'ready', manifest };
    } catch (error) {
      if (error instanceof IndexIncompatibleError) return { status: 'failed', incompatible: error.message };
      if (error instanceof IndexCorruptError) return { status: 'failed', corrupt: error.message };
      throw error;
    }
  }

  /**
   * The manifest, read again only when a commit has swapped it (renamed into place: a new stamp).
   * Every tool call asks for the index state; reading and parsing the manifest each time was a
   * large part of the main thread's work for answers from the cache (bench/RESULTS.md, load-search).
   */
  #currentManifest(known?: string): Manifest | undefined {
    const stamp = known ?? fileStamp(this.store.manifestPath);
    // Read after the stamp: a commit between the two is read now and seen again next time.
    if (this.#manifest?.stamp !== stamp) this.#manifest = { stamp, value: this.store.readManifest() };
    return this.#manifest.value;
  }

  #manifest: { stamp: string; value: Manifest | undefined } | undefined;

  /** The index, or the error a tool should answer with. */
  requireIndex(state: IndexState = this.indexState()): Manifest {
    if (state.incompatible) throw codedError('index_incompatible', state.incompatible, { workspace: this.root });
    if (state.corrupt) throw codedError('index_corrupt', state.corrupt, { workspace: this.root });
    if (!state.manifest) {
      if (this.job) {
        throw codedError(
          'index_not_ready',
          `Project ${this.root} is being indexed (job ${this.job.id}, ${this.job.percent}%): retry when it is done`,
          {
            workspace: this.root,
            job_id: this.job.id,
          },
          'Follow the job with index_status, then retry.',
        );
      }
      throw codedError('index_not_ready', `Project detected at ${this.root} but not indexed. Run \`sextant index ${this.root}\` first.`, {
        workspace: this.root,
      });
    }
    this.#ensureWatcher({ reconcile: true });
    return state.manifest;
  }

  /** Starts an index or sync job; one at a time per project, in this process or another. */
  startJob(mode: JobMode, options: { force?: boolean } = {}): IndexJob {
    const running = this.job;
    if (running) {
      throw codedError(
        'index_in_progress',
        `${capitalized(article(running.mode))} job (${running.id}) is already running for ${this.root}: ${running.message}`,
        { workspace: this.root, job_id: running.id },
      );
    }
    // A live journal of this process is the watcher's sync: the job queues behind it (exclusive).
    const elsewhere = this.store.runningJob();
    if (elsewhere && elsewhere.pid !== process.pid) {
      throw codedError('index_in_progress', `${capitalized(article(elsewhere.mode))} job started by process ${elsewhere.pid} is running for ${this.root}`, {
        workspace: this.root,
        pid: elsewhere.pid,
      });
    }
    const state = this.indexState();
    if (state.incompatible && !options.force) throw codedError('index_incompatible', state.incompatible, { workspace: this.root });
    if (state.corrupt && mode === 'sync' && !options.force) throw codedError('index_corrupt', state.corrupt, { workspace: this.root });
    if (mode === 'sync' && !state.manifest && !state.incompatible) mode = 'index'; // nothing to sync from: build
    const work = runJob(mode, this.root, { home: this.#home, force: options.force === true });
    const job = new IndexJob(mode, this.root, (running, signal) => this.exclusive(() => work(running, signal)));
    this.#job = job;
    this.lastJob = job;
    // Before the job's first stage (it starts on the next microtask): a follower sees every update.
    this.#onJob?.(job);
    // On disk before the caller is told the job started: a server stopped before the job begins
    // still leaves an interrupted job that `status` names.
    const pending = { mode, pid: process.pid, startedAt: job.startedAt.toISOString(), stage: 'starting', done: 0, total: 0 };
    const recorded = this.store.recordPendingJob(pending);
    void job.finished.then(() => {
      if (recorded) this.store.settlePendingJob(pending, job.status === 'completed' ? undefined : (job.error?.message ?? job.status));
      // The job has just brought the index up to date: nothing to reconcile.
      if (job.status === 'completed') this.#ensureWatcher({ reconcile: false });
      else if (job.status === 'failed') this.#logger?.warning(`Index job ${job.id} for ${this.root} failed: ${job.error?.message}`);
    });
    return job;
  }

  /**
   * The symbols, opened in place (only headers are read), and opened again whenever the symbol
   * phase committed: the stamp is the symbols manifest, which a commit swaps last. Undefined
   * before the first symbol phase; index_incompatible or index_corrupt for symbols that cannot
   * be read.
   */
  symbols(at?: IndexStamps): ProjectSymbols | undefined {
    const stamp = at?.symbols ?? symbolsStamp(this.store);
    if (this.#symbols?.stamp !== stamp) {
      // The previous generation is not closed here: a lookup may still hold it (its reader closes when collected).
      this.#symbols = { stamp, value: undefined };
      try {
        this.#symbols.value = SymbolIndex.open(this.store, { present: (path) => existsSync(join(this.root, path)) });
      } catch (error) {
        this.#symbols = undefined;
        if (error instanceof IndexIncompatibleError) throw codedError('index_incompatible', error.message, { workspace: this.root });
        if (error instanceof IndexCorruptError) throw codedError('index_corrupt', error.message, { workspace: this.root });
        throw error;
      }
    }
    return this.#symbols.value;
  }

  /**
   * Which generation of the index answers now: the stamps of the text manifest and of the symbols
   * manifest, each swapped by rename at a commit. An answer computed from one generation holds
   * for as long as this is unchanged (tools/search/answer-cache.ts).
   */
  generation(at?: IndexStamps): string {
    return at ? `${at.manifest}|${at.symbols}` : `${fileStamp(this.store.manifestPath)}|${symbolsStamp(this.store)}`;
  }

  /** Runs `task` after every index writer of this process queued before it. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = (): Promise<T> => counted(this.#activity, task);
    const turn = this.#turn.then(run, run);
    this.#turn = turn.catch(() => undefined);
    return turn;
  }

  /** The project's searches: on the server's pool of search threads, or (made alone) on a pool of its own. */
  get search(): SearchService {
    this.#search ??= new SearchService(this.root, this.#pool ? { pool: this.#pool } : { home: this.#home });
    return this.#search;
  }

  /** Whether the project may be let go now: no job of this process is writing its index. */
  get idle(): boolean {
    return this.#job?.running !== true;
  }

  /**
   * Lets go of what the project holds while nobody uses it: its watcher, its files open in the
   * search threads, its symbols (closed once no kept answer still reads them). The next use opens
   * them again, and a watcher started then first finds what changed meanwhile.
   */
  async release(): Promise<void> {
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#stamps?.release();
    this.#symbols = undefined;
    await this.#search?.close();
    this.#search = undefined;
  }

  #ensureWatcher(start: { reconcile: boolean }): void {
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
      // Changes made while no server watched (a checkout with the agent closed) are found now,
      // not at the first periodic reconciliation; answers meanwhile skip files that are gone.
      if (start.reconcile) this.#watcher.reconcile().catch((error: unknown) => this.#logger?.warning(`Reconciling ${this.root} with the disk`, error));
    } catch (error) {
      this.#logger?.warning(`Could not watch ${this.root}; run sync_repo after changes`, error);
      this.#watcher = undefined;
    }
  }

  async close(): Promise<void> {
    this.#job?.cancel('the server is shutting down');
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#stamps?.close();
    await this.#search?.close();
    this.#search = undefined;
  }
}
