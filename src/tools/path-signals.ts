/**
 * What a path says about a match, for search_code's ranking (search-code.ts) and for choosing
 * which definitions of a common name join the ranking (search-seeds.ts).
 */

/** Source over tests; tests over test data, fixtures, vendored and generated files. */
export const LOW_VALUE_PATHS: Array<[RegExp, number, string]> = [
  [/(^|\/)(node_modules|vendor|third_party|external)\//, 50, 'vendored'],
  [/(\.min\.(js|css)$|(^|\/)(dist|build|generated|gen)\/|\.generated\.|_pb2?\.|\.pb\.go$)/, 50, 'generated'],
  [/(^|\/)(testdata|fixtures|__fixtures__|test-data)\//, 50, 'test data'],
  [/((^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|_test\.go$|(^|\/)test_[^/]*\.py$)/, 30, 'test'],
];

/** At a tie, the shallower path, then the shorter. */
export function pathDepth(path: string): number {
  let depth = 0;
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) depth++;
  return depth;
}

/** Whether the path is a test, test data, vendored or generated one. */
export function lowValuePath(path: string): boolean {
  return LOW_VALUE_PATHS.some(([pattern]) => pattern.test(path));
}
