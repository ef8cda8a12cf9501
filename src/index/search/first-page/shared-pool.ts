/**
 * The matches a search across projects ranks in all, for the projects that need a pool. A project
 * that defines the name past its seeds (definition-seeds.ts, MAX_SEEDED_DEFINITIONS) is never
 * certain of its page before its last defining file is read: alone, it reads until its pool of
 * matches (the query's limit) fills. With a pool each, several such projects would rank as many
 * pools of matches, where one index holding the same files ranks one. So they share one, read in
 * the batch's one order (the file whose matches could rank best next), and each stops where it
 * filled. A project whose seeds hold every definition reads until its page is certain, as it
 * would alone, and takes nothing from the pool.
 */

/** How a ranked reading ended with respect to its pool: unset when it never needed one (its seeds were complete). */
export type Pooled = 'own' | 'shared';

export class SharedPool {
  #room: number;

  /** `size`: the matches the projects that share it may read between them. */
  constructor(size: number) {
    this.#room = Math.max(0, size);
  }

  /** Matches still to be read before the pool is full. */
  get room(): number {
    return this.#room;
  }

  /** `count` matches were read into the pool. */
  take(count: number): void {
    this.#room = Math.max(0, this.#room - count);
  }
}
