/**
 * The matches read so far that are not yet known to rank before every unread file, best first: a
 * binary heap. The best unread file can only get worse as a search goes on (files are read in
 * sourceFirstKey's order), so a match once before it stays before it, and only the heap's top
 * needs asking.
 */
import { ranksBefore, type RankKey } from '../ranking.js';

export class Pending {
  readonly #items: RankKey[] = [];
  readonly #before: (key: RankKey, bound: RankKey) => boolean;

  /**
   * `before`: whether a match ranks before the unread ones (ranksBefore by default, where a full
   * tie goes to the match read first; a search across projects asks strictlyBefore, since a tie
   * between two projects goes to neither by reading order).
   */
  constructor(before: (key: RankKey, bound: RankKey) => boolean = ranksBefore) {
    this.#before = before;
  }

  static #better(a: RankKey, b: RankKey): boolean {
    return a.score !== b.score ? a.score > b.score : a.depth !== b.depth ? a.depth < b.depth : a.length < b.length;
  }

  push(key: RankKey): void {
    const items = this.#items;
    let at = items.push(key) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!Pending.#better(items[at]!, items[parent]!)) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }

  /** Takes out every key that ranks before `bound`; how many there were. */
  takeBefore(bound: RankKey): number {
    const items = this.#items;
    let taken = 0;
    while (items.length > 0 && this.#before(items[0]!, bound)) {
      const last = items.pop()!;
      taken++;
      if (items.length === 0) break;
      items[0] = last;
      for (let at = 0; ;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let best = at;
        if (left < items.length && Pending.#better(items[left]!, items[best]!)) best = left;
        if (right < items.length && Pending.#better(items[right]!, items[best]!)) best = right;
        if (best === at) break;
        [items[at], items[best]] = [items[best]!, items[at]!];
        at = best;
      }
    }
    return taken;
  }
}
