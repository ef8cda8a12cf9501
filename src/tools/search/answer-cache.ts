/**
 * Answers kept by key: a tool whose answer depends only on its arguments and on one generation
 * of the index (search_code) answers a repeated call with a lookup. The key names the generation,
 * so a commit of the index makes every older entry unreachable; they leave as newer ones come
 * (least recently used first), within a count and a weight (the matches they hold). Calls that
 * miss together share one computation: fifty agents asking the same question cost one search.
 */

/** What a computation gives: the value, its weight, and whether it may be kept (a partial answer may not). */
export interface Computed<V> {
  value: V;
  weight: number;
  keep: boolean;
}

export class AnswerCache<V> {
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  /** In use order: the first is the least recently used. */
  readonly #entries = new Map<string, { value: V; weight: number }>();
  readonly #pending = new Map<string, Promise<Computed<V>>>();
  #weight = 0;

  constructor(options: { maxEntries: number; maxWeight: number }) {
    this.#maxEntries = options.maxEntries;
    this.#maxWeight = options.maxWeight;
  }

  /** The answer for `key`: kept, being computed by another call, or computed now. `cached` says which. */
  async get(key: string, compute: () => Promise<Computed<V>>): Promise<{ value: V; cached: boolean }> {
    // A cache of no entries (SEXTANT_ANSWER_CACHE=0: benches of the search itself) shares nothing either.
    if (this.#maxEntries === 0) return { value: (await compute()).value, cached: false };
    const kept = this.#touch(key);
    if (kept) return { value: kept.value, cached: true };
    const running = this.#pending.get(key);
    if (running) {
      return { value: (await running).value, cached: true };
    }
    const computation = compute();
    this.#pending.set(key, computation);
    try {
      const computed = await computation;
      if (computed.keep) this.#keep(key, computed.value, computed.weight);
      return { value: computed.value, cached: false };
    } finally {
      this.#pending.delete(key);
    }
  }

  /**
   * The answer for `key`, kept or computed now by `compute`, which is synchronous: no await per
   * project of a search across many. (A computation of the same key in flight elsewhere is not
   * waited for: this one is as cheap.)
   */
  getNow(key: string, compute: () => Computed<V>): { value: V; cached: boolean } {
    if (this.#maxEntries > 0) {
      const kept = this.#touch(key);
      if (kept) return { value: kept.value, cached: true };
    }
    const computed = compute();
    this.keep(key, computed);
    return { value: computed.value, cached: false };
  }

  /** Keeps `computed` as the answer for `key`, if it may be kept and none is kept yet. */
  keep(key: string, computed: Computed<V>): void {
    if (this.#maxEntries > 0 && computed.keep && !this.#entries.has(key)) this.#keep(key, computed.value, computed.weight);
  }

  /** The weight of the answers kept (tests). */
  get weight(): number {
    return this.#weight;
  }

  /** The answer kept for `key`, if any (never computed here). */
  peek(key: string): V | undefined {
    // Nothing is kept: the key is not even looked at (hashing a long new key is not free).
    if (this.#maxEntries === 0) return undefined;
    return this.#touch(key)?.value;
  }

  /** The entry for `key`, made the most recently used. */
  #touch(key: string): { value: V; weight: number } | undefined {
    const kept = this.#entries.get(key);
    if (kept) {
      this.#entries.delete(key);
      this.#entries.set(key, kept);
    }
    return kept;
  }

  get size(): number {
    return this.#entries.size;
  }

  #keep(key: string, value: V, weight: number): void {
    if (weight > this.#maxWeight) return;
    // One kept already (a computation of the same key finished first): replaced, its weight given back.
    const old = this.#entries.get(key);
    if (old) {
      this.#entries.delete(key);
      this.#weight -= old.weight;
    }
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#weight <= this.#maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }
}
