/**
 * Watching a folder that other processes of the machine write into: fs.watch for promptness, and a
 * poll as the bound for file systems that drop events (or a machine out of inotify watches).
 */
import { watch, type FSWatcher } from 'node:fs';

/** The longest a change in a watched folder goes unheard. */
const WATCH_POLL_MS = 1_000;

/** Calls `look` on every change fs.watch sees in `folder`, and at each poll. Like fs.watch, it keeps the process alive until stopped. */
export function watchFolder(folder: string, look: () => void): () => void {
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(folder, look);
    watcher.on('error', () => watcher?.close());
  } catch {
    // the poll alone keeps the bound
  }
  const poll = setInterval(look, WATCH_POLL_MS);
  return () => {
    clearInterval(poll);
    watcher?.close();
  };
}
