/**
 * The bound of a search across projects: the `end` best matches found so far, in any project.
 * Once there are `end` of them, no match ranked after the last can be on the page, and a project
 * still to search reads only as far as a match could beat it (first-page/early-page.ts). The
 * matches come from the caller (the definitions of the name, found beside the index) and from the
 * searches of the batch; a match is counted once, however many of them report it, since a bound
 * that counted one match twice would stop a search short of a match the page needs.
 */
import { knownMatch, strictlyBefore, type KnownMatch, type RankKey, type Ranked } from '../ranking.js';

const byRank = (a: RankKey, b: RankKey): number => (strictlyBefore(a, b) ? -1 : strictlyBefore(b, a) ? 1 : 0);

export class PageBound {
  readonly #end: number;
  /** The best `end` matches, by where they are (project, path, line). */
  #best = new Map<string, RankKey>();
  #bound: RankKey | undefined;

  constructor(end: number, known: KnownMatch[] = []) {
    this.#end = end;
    this.#take(known);
  }

  bound(): RankKey | undefined {
    return this.#bound;
  }

  /** A project's results, best first: the best `end` of everything found are kept. */
  add(root: string, ranked: Ranked[]): void {
    this.#take(ranked.slice(0, this.#end).map((item) => knownMatch(root, item)));
  }

  #take(matches: KnownMatch[]): void {
    for (const { root, path, line, key } of matches) this.#best.set(`${root}\0${path}\0${line}`, key);
    const entries = [...this.#best].sort((a, b) => byRank(a[1], b[1]));
    this.#best = new Map(entries.slice(0, this.#end));
    this.#bound = entries.length >= this.#end ? entries[this.#end - 1]![1] : undefined;
  }
}
