/**
 * What a path says about a match: search_code's ranking (ranking.ts), which definitions of
 * a common name join it (definition-seeds.ts), and which matches fill its pool first when there
 * are more than it holds (a search with `sourceFirst`).
 */

/** Source over tests; tests over test data, fixtures, vendored and generated files. */
const LOW_VALUE_PATHS: Array<[RegExp, number, string]> = [
  [/(^|\/)(node_modules|vendor|third_party|external)\//, 50, 'vendored'],
  [/(\.min\.(js|css)$|(^|\/)(dist|build|generated|gen)\/|\.generated\.|_pb2?\.|\.pb\.go$)/, 50, 'generated'],
  [/(^|\/)(testdata|fixtures|__fixtures__|test-data)\//, 50, 'test data'],
  [/((^|\/)(tests?|__tests__|spec|selftests?|unittests?|testing)\/|[._-](test|spec)\.[a-z]+$|_test\.go$|(^|\/)test_[^/]*\.py$)/, 30, 'test'],
  // Prose about the code, after the code and its tests.
  [/((^|\/)(docs?|Documentation)\/|\.(md|mdx|rst|adoc|txt)$)/, 35, 'docs'],
];

/** At a tie, the shallower path, then the shorter. */
export function pathDepth(path: string): number {
  let depth = 0;
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) depth++;
  return depth;
}

/**
 * What the path costs a match in the ranking: 0 for source, more for the classes above (summed).
 * `notes`, when given, gets each class it is in (`test path`, …).
 */
export function pathPenalty(path: string, notes?: string[]): number {
  let penalty = 0;
  for (const [pattern, cost, why] of LOW_VALUE_PATHS) {
    if (!pattern.test(path)) continue;
    penalty += cost;
    notes?.push(`${why} path`);
  }
  return penalty;
}

/**
 * Where a path's matches stand in a search with `sourceFirst`, lowest first: by the path's class
 * (pathPenalty: source first), then its depth, then its length, as ranking breaks a tie. Its
 * files are read in that order, so the pool of a common word holds the matches ranking would put
 * first, and the best an unread file can do is known from its path alone (first-page/early-page.ts).
 */
export function sourceFirstKey(path: string): number {
  return pathPenalty(path) * 2 ** 32 + Math.min(pathDepth(path), 2 ** 11) * 2 ** 20 + Math.min(path.length, 2 ** 20 - 1);
}

/** The path's penalty and depth, read back from its sourceFirstKey (a reader keeps one per file). */
export function sourceFirstParts(key: number): { penalty: number; depth: number } {
  return { penalty: Math.floor(key / 2 ** 32), depth: Math.floor(key / 2 ** 20) % 2 ** 12 };
}

/**
 * The order of a search with `sourceFirst`: by sourceFirstKey, then by `then`. Each path's key is
 * worked out once. One rule for the files a search worker reads (reader.ts) and the matches its
 * shares merge into (merge-shares.ts).
 */
export function bySourceFirst<T>(pathOf: (item: T) => string, then: (a: T, b: T) => number): (a: T, b: T) => number {
  const keys = new Map<string, number>();
  const keyOf = (item: T): number => {
    const path = pathOf(item);
    let key = keys.get(path);
    if (key === undefined) keys.set(path, (key = sourceFirstKey(path)));
    return key;
  };
  return (a, b) => keyOf(a) - keyOf(b) || then(a, b);
}

/**
 * `items`, in path order, in source-first order (bySourceFirst's, with byPath after the key):
 * grouped by key, lowest first, path order kept within each. No comparison of paths: a search's
 * candidates are already in path order, and sorting all of them again was a large part of
 * a common word's search.
 */
export function sourceFirst<T>(items: T[], keyOf: (item: T) => number): T[] {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const members = groups.get(key);
    if (members) members.push(item);
    else groups.set(key, [item]);
  }
  if (groups.size < 2) return items;
  return [...groups.keys()].sort((a, b) => a - b).flatMap((key) => groups.get(key)!);
}

/** Whether the path is a test, test data, docs, vendored or generated one. */
export function lowValuePath(path: string): boolean {
  return pathPenalty(path) > 0;
}
