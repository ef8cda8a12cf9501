/**
 * A Map used as a least-recently-used cache: Map keeps insertion order, so a hit is moved to the
 * end and the oldest entry is the first one. Shared by the symbol segments' pages and block
 * caches, search_code's ranking caches and the stand-ins for 2026-07-28 clients' roots.
 */

/** The value under `key`, made the most recently used; undefined when absent. */
export function touch<K, V>(cache: Map<K, V>, key: K): V | undefined {
  const value = cache.get(key);
  if (value !== undefined) {
    cache.delete(key);
    cache.set(key, value);
  }
  return value;
}

/** Stores `value` as the most recently used; past `max` entries, the least recently used goes. */
export function keep<K, V>(cache: Map<K, V>, key: K, value: V, max: number): void {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > max) cache.delete(cache.keys().next().value!);
}

/** The cache kept for `owner` (a generation of the symbols, say): a new owner starts empty, a dropped one takes its cache along. */
export function cacheOf<K, V>(caches: WeakMap<object, Map<K, V>>, owner: object): Map<K, V> {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = new Map()));
  return cache;
}
