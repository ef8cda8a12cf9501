/** Evaluating a trigram query over one segment's posting lists, and the sorted-list set operations. */
import type { TrigramQuery } from './query-plan.js';
import type { Segment } from '../text/segment.js';

/** No document: what an AND gives once one of its lists is empty. */
const NONE = new Uint32Array(0);

/** When an AND of trigram lists is down to this many documents, the rest of the long lists are skipped. */
const GOOD_ENOUGH_CANDIDATES = 16;

/**
 * A list this short is intersected whatever the candidates left: reading it costs less than
 * verifying the file it most likely rules out. A small project's lists are all this short, and
 * skipping them left a search across many projects verifying false candidates in each.
 */
const SHORT_LIST_POSTINGS = 256;

/** Ids of the documents (files, or blocks of large files) of `segment` that can match, ascending (= path order). */
export function segmentCandidates(segment: Segment, plan: TrigramQuery): Uint32Array {
  const evaluate = (query: TrigramQuery): Uint32Array | undefined => {
    switch (query.op) {
      case 'all':
        return undefined;
      case 'trigram':
        return segment.postings(query.trigram);
      case 'and': {
        // Rarest trigram lists first, and stop once few candidates are left: verifying a
        // handful of files costs less than decoding long lists that would barely narrow them.
        // A short list is always worth its read.
        const trigrams: Array<{ trigram: number; count: number }> = [];
        for (const child of query.children) {
          if (child.op !== 'trigram') continue;
          const count = segment.postingCount(child.trigram);
          // A trigram no document here holds: nothing here can match, whatever the others hold
          // (most segments, for a selective name searched across many projects).
          if (count === 0) return NONE;
          trigrams.push({ trigram: child.trigram, count });
        }
        trigrams.sort((a, b) => a.count - b.count);
        let result: Uint32Array | undefined;
        for (const { trigram, count } of trigrams) {
          if (result && (result.length === 0 || (result.length <= GOOD_ENOUGH_CANDIDATES && count > SHORT_LIST_POSTINGS))) break;
          const list = segment.postings(trigram);
          result = result ? intersect(result, list) : list;
        }
        if (result?.length === 0) return NONE;
        for (const child of query.children) {
          if (child.op === 'trigram') continue;
          const list = evaluate(child);
          if (list) result = result ? intersect(result, list) : list;
        }
        return result;
      }
      case 'or': {
        const lists = query.children.map(evaluate);
        if (lists.some((list) => list === undefined)) return undefined;
        return unionAll(lists as Uint32Array[], segment.documentCount);
      }
    }
  };
  const indexed = evaluate(plan) ?? Uint32Array.from({ length: segment.documentCount }, (_, i) => i);
  // Documents kept out of the postings (data-like files: too many distinct trigrams) are always candidates.
  return segment.unindexedIds.length === 0 ? indexed : union(indexed, segment.unindexedIds);
}

export function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

/**
 * The union of many lists: marked in one pass over them all. A regex class spelled out as
 * trigrams (`\d\d\d` is 1,000 of them) ORs that many lists, and merging them pairwise copied
 * the growing result once per list.
 */
export function unionAll(lists: Uint32Array[], documentCount: number): Uint32Array {
  if (lists.length <= 2) return lists.reduce(union, new Uint32Array(0));
  const seen = new Uint8Array(documentCount);
  let count = 0;
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      const id = list[i]!;
      if (seen[id] === 0) {
        seen[id] = 1;
        count++;
      }
    }
  }
  const out = new Uint32Array(count);
  for (let id = 0, n = 0; n < count; id++) if (seen[id] === 1) out[n++] = id;
  return out;
}

export function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) out[n++] = a[i++]!;
    else if (i >= a.length || b[j]! < a[i]!) out[n++] = b[j++]!;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}
