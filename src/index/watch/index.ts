/** Keeping an index current while a server runs: file-system events, batched into syncs. */
export { IndexWatcher } from './watcher.js';
