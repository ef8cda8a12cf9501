/**
 * Index and sync jobs run inside the server: one at a time per project, cancellable, and
 * observable while they run. Progress is kept as a number that only grows (0-100) with a human
 * message per stage, which is what MCP progress notifications carry.
 */
import { buildIndex, buildSymbolsInBackground, type IndexProgress, mergeDeltas, syncIndex } from '../index/build/index.js';
import { NotIndexedError } from '../index/search/index.js';
import { IndexStore } from '../index/store/index.js';
import { SymbolIndex } from '../index/symbols/index.js';
import { crypto } from '../util/lazy-crypto.js';

export type JobMode = 'index' | 'sync';
export type JobStatus = 'running' | 'completed' | 'failed' | 'cancelled';

export interface JobResult {
  files: number;
  bytes: number;
  symbols: number;
  added?: number;
  changed?: number;
  deleted?: number;
}

/** Where each stage sits on the 0-100 scale progress notifications use. */
const SCALE = { discovery: [0, 5], indexing: [5, 65], symbols: [65, 97], finalizing: [97, 99] } as const;

let nextJobNumber = 1;
/**
 * Names this process in its job ids (`sync-3fa9c1-2`): servers that share a home or a team's
 * database each count from 1, and their ids must not collide in what they write or report.
 */
let processTag: string | undefined;

export class IndexJob {
  readonly id: string;
  readonly mode: JobMode;
  readonly root: string;
  readonly startedAt = new Date();
  status: JobStatus = 'running';
  stage = 'starting';
  message = 'Starting';
  /** 0-100, strictly growing across updates. */
  progress = 0;
  scanned = 0;
  done = 0;
  total = 0;
  symbols = 0;
  /** When the text index was done and the symbols began (undefined: not yet, or nothing to do for symbols). */
  textFinishedAt: Date | undefined;
  finishedAt: Date | undefined;
  result: JobResult | undefined;
  error: { code: string; message: string } | undefined;
  readonly finished: Promise<void>;
  readonly #controller = new AbortController();
  readonly #listeners = new Set<(job: IndexJob) => void>();

  constructor(mode: JobMode, root: string, run: (job: IndexJob, signal: AbortSignal) => Promise<JobResult>) {
    processTag ??= crypto().randomBytes(3).toString('hex');
    this.id = `${mode}-${processTag}-${nextJobNumber++}`;
    this.mode = mode;
    this.root = root;
    // Started on the next microtask: whoever starts a job subscribes to it first and sees every stage.
    this.finished = Promise.resolve()
      .then(() => run(this, this.#controller.signal))
      .then(
        (result) => {
          this.result = result;
          this.status = 'completed';
          this.update('done', 'Done', 100);
        },
        (error: unknown) => {
          this.status = this.#controller.signal.aborted ? 'cancelled' : 'failed';
          const code = (error as { code?: unknown }).code;
          this.error = { code: typeof code === 'string' ? code : 'internal_error', message: error instanceof Error ? error.message : String(error) };
          this.update(this.status, this.status === 'cancelled' ? 'Cancelled; the previous index is kept' : `Failed: ${this.error.message}`, this.progress);
        },
      );
  }

  get running(): boolean {
    return this.status === 'running';
  }

  get percent(): number {
    return Math.round(this.progress * 10) / 10;
  }

  /** The job as tools report it: identity, stage, progress, timing, and the error if it failed. */
  snapshot(): Record<string, unknown> {
    const fields: Record<string, unknown> = {
      job_id: this.id,
      mode: this.mode,
      status: this.status,
      stage: this.stage,
      message: this.message,
      done: this.done,
      total: this.total,
      percent: this.percent,
      files_scanned: this.scanned,
      symbols: this.symbols,
      started_at: this.startedAt.toISOString(),
    };
    if (this.finishedAt) fields.duration_ms = this.finishedAt.getTime() - this.startedAt.getTime();
    if (this.error) fields.error = this.error.message;
    return fields;
  }

  cancel(reason = 'cancelled'): void {
    if (this.running) this.#controller.abort(new Error(reason));
  }

  /** Calls `listener` on every update until the returned function is called. */
  onUpdate(listener: (job: IndexJob) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  update(stage: string, message: string, progress: number): void {
    this.stage = stage;
    this.message = message;
    if (progress > this.progress) this.progress = Math.min(100, progress);
    if (stage === 'done' || stage === 'cancelled' || stage === 'failed') this.finishedAt = new Date();
    for (const listener of this.#listeners) listener(this);
  }

  /** A text-index event on the job's scale. */
  indexProgress(event: IndexProgress): void {
    if (event.stage === 'discovery') {
      this.scanned = event.scanned;
      this.update('discovery', `Scanning files: ${event.scanned} discovered`, scaled('discovery', event.scanned / (event.scanned + 2_000)));
    } else if (event.stage === 'indexing') {
      this.done = event.done;
      this.total = event.total;
      const share = event.total > 0 ? event.done / event.total : 1;
      this.update('parsing', `Parsing files: ${event.done}/${event.total} (${Math.floor(100 * share)}%)`, scaled('indexing', share));
    }
  }

  symbolProgress(done: number, total: number, symbols: number): void {
    this.symbols = symbols;
    this.update('indexing', `Indexing: ${done}/${total} files, ${symbols} symbols`, scaled('symbols', total > 0 ? done / total : 1));
  }
}

/** Tells its listeners of each job started. */
export class JobAnnouncer {
  readonly #listeners = new Set<(job: IndexJob) => void>();

  /** Calls `listener` with each job announced; returns how to stop. */
  listen(listener: (job: IndexJob) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  announce(job: IndexJob): void {
    for (const listener of this.#listeners) listener(job);
  }
}

function scaled(stage: keyof typeof SCALE, share: number): number {
  const [from, to] = SCALE[stage];
  return from + (to - from) * Math.max(0, Math.min(1, share));
}

/** The work of a job: the text index (full or incremental), then symbols for what changed. */
export function runJob(mode: JobMode, root: string, options: { home?: string; force?: boolean }): (job: IndexJob, signal: AbortSignal) => Promise<JobResult> {
  return async (job, signal) => {
    const common = { signal, onProgress: (event: IndexProgress) => job.indexProgress(event), home: options.home };
    let counts: Pick<JobResult, 'added' | 'changed' | 'deleted'> = {};
    if (mode === 'index' || options.force) {
      await buildIndex(root, { ...common, force: options.force === true });
    } else {
      const summary = await syncIndex(root, common);
      counts = { added: summary.added, changed: summary.changed, deleted: summary.deleted };
      if (summary.mergeDue) mergeDeltas(root, { home: options.home });
    }
    signal.throwIfAborted();
    // The manifest only (the symbol phase reads the file list itself): no segment is loaded.
    const store = new IndexStore(root, options.home);
    const manifest = store.readManifest();
    if (!manifest) throw new NotIndexedError(root);
    const current = mode === 'sync' && !options.force ? SymbolIndex.current(store, manifest.updatedAt) : undefined;
    if (current) {
      return { files: manifest.files, bytes: manifest.bytes, symbols: current.symbols, ...counts };
    }
    job.textFinishedAt = new Date();
    // Off this thread: on a large project the symbol files take seconds to read and write.
    const symbols = await buildSymbolsInBackground(root, {
      signal,
      force: options.force === true,
      onProgress: (done, total, found) => job.symbolProgress(done, total, found),
      home: options.home,
    });
    job.update('finalizing', 'Finalizing index...', scaled('finalizing', 1));
    return { files: manifest.files, bytes: manifest.bytes, symbols: symbols.symbols, ...counts };
  };
}
