/**
 * Memory a long-running thread gives back when it goes quiet. V8 collects when allocation pushes
 * it to, not when work ends: after a burst of tool calls the garbage of the last ones, and the
 * young generation they grew, stay in the heap until more work comes, and V8's own memory reducer
 * waits seconds and trims less (the figures are in bench/RESULTS.md). So each thread that works
 * on request (the server's main thread, the search workers, the symbol thread) counts the work it
 * has in hand, and once none has come for `quietMs` runs one full collection that also shrinks the
 * heap. Work that arrives during it waits for it (a full collection, tens of milliseconds); work
 * that follows closely never starts one.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Quiet time after the last call before a thread trims its heap. */
const DEFAULT_HEAP_TRIM_QUIET_MS = 300;

type GcFunction = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's collector, for this thread, without a global `gc` for any code we load: the flag is on
 * only while one new context hands the function over (V8 flags are per process).
 */
function heapCollector(): (() => void) | undefined {
  let gc = (globalThis as { gc?: unknown }).gc as GcFunction | undefined;
  if (typeof gc !== 'function') {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as GcFunction | undefined;
    } catch {
      gc = undefined;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  if (typeof gc !== 'function') return undefined;
  const collect = gc;
  // V8 12 (Node 22) on: a "last resort" collection also gives back the young generation and empty
  // pages. Older ones take no options (they ignore them, and collect nothing): a plain full collection.
  if (Number(process.versions.v8.split('.')[0]) >= 12) return () => collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return () => collect();
}

/** What the trimmer counts: a call (or any other work) from its start until it settles. */
export interface Activity {
  begin(): void;
  end(): void;
}

/**
 * `work` counted by `activity` from its start until it settles, either way (no extra async frame:
 * a tool call goes through here); without an activity, just `work`.
 */
export function counted<T>(activity: Activity | undefined, work: () => Promise<T>): Promise<T> {
  if (!activity) return work();
  activity.begin();
  let settled: Promise<T>;
  try {
    settled = work();
  } catch (error) {
    activity.end();
    throw error;
  }
  const end = (): void => activity.end();
  settled.then(end, end);
  return settled;
}

export interface HeapTrimOptions {
  quietMs?: number;
  /** Told after each trim how long it took (for logs and tests). */
  onTrim?(durationMs: number): void;
}

export class IdleHeapTrimmer implements Activity {
  readonly #quietMs: number;
  readonly #onTrim: ((durationMs: number) => void) | undefined;
  readonly #collect: (() => void) | undefined;
  #active = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: HeapTrimOptions = {}) {
    this.#quietMs = options.quietMs ?? DEFAULT_HEAP_TRIM_QUIET_MS;
    this.#onTrim = options.onTrim;
    this.#collect = heapCollector();
  }

  /** Whether this runtime lets a thread collect on demand. */
  get available(): boolean {
    return this.#collect !== undefined;
  }

  /** A call started: no trim until it and every other one have ended (a timer that fires meanwhile does nothing). */
  begin(): void {
    this.#active++;
  }

  /**
   * A call ended: the last one to end starts the quiet time again. One timer, restarted in place:
   * with many calls in flight this runs after every batch of answers, where a new timer each time
   * was a measurable part of a trivial call.
   */
  end(): void {
    if (this.#active > 0) this.#active--;
    if (this.#active > 0 || this.#closed || !this.#collect) return;
    if (this.#timer) {
      this.#timer.refresh();
      return;
    }
    this.#timer = setTimeout(() => this.#trim(), this.#quietMs);
    // A pending trim never keeps a thread alive that has nothing else to do.
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #trim(): void {
    this.#timer = undefined;
    if (this.#active > 0 || this.#closed) return;
    const started = performance.now();
    this.#collect!();
    this.#onTrim?.(performance.now() - started);
  }
}
