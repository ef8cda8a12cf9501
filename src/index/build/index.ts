/**
 * Building and updating an index: a full build, a sync of what changed, the merge of deltas, and
 * the symbol phase that follows them in the background.
 */

export { buildSymbolsInBackground } from './symbol-phase.js';
export { buildIndex, type IndexProgress } from './indexer.js';
export { mergeDeltas } from './merge.js';
export { syncIndex } from './sync.js';
