// What the across-projects benches share: the Go and Python standard libraries (or any two trees)
// split by top-level folder into projects, beside one project holding the same files, and the
// query classes they are searched with (load-search.mjs over a server, batch-cost.mjs in one
// search thread's code).
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

export const QUERIES = {
  selective: [
    'ServeHTTP',
    'NewReader',
    'ReadFull',
    'ListenAndServe',
    'ParseInt',
    'HandleFunc',
    'WriteString',
    'Unmarshal',
    'MarshalIndent',
    'NewRequest',
    'DialContext',
    'ParseDuration',
    'TrimPrefix',
    'SplitN',
    'NewEncoder',
    'ReadDir',
    'SetDeadline',
    'LookupHost',
    'Fprintf',
    'NewTicker',
  ].map((query) => ({ query })),
  common: ['copyright', 'struct', 'return', 'error', 'func', 'string', 'the', 'nil', 'len', 'Close'].map((query) => ({ query })),
  regex: ['[A-Z]{3}[0-9]{3}', 'x{2,}y', 'func \\(\\w+ \\*\\w+\\) Close\\(\\)', 'err != nil \\{', '\\bTODO\\b', '0x[0-9a-f]{8}'].map((query) => ({
    query,
    regex: true,
  })),
};

/** A folder's size in bytes, every file under it. */
function sizeOf(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += sizeOf(join(path, entry));
  return total;
}

/**
 * The libraries copied apart under `into`: of each, its largest top-level folders one project
 * each, and everything else of it one more, `count` projects in all. Returns the project folders.
 */
export function splitLibraries(libraries, count, into) {
  const perLibrary = Math.floor(count / libraries.length);
  const folders = [];
  for (const library of libraries) {
    const name = basename(library) === 'src' ? basename(join(library, '..')) : basename(library);
    const entries = readdirSync(library).map((entry) => ({ entry, size: sizeOf(join(library, entry)), dir: statSync(join(library, entry)).isDirectory() }));
    const largest = entries
      .filter((one) => one.dir)
      .sort((a, b) => b.size - a.size)
      .slice(0, perLibrary - 1);
    for (const { entry } of largest) {
      const target = join(into, `${name}-${entry}`);
      cpSync(join(library, entry), join(target, entry), { recursive: true });
      folders.push(target);
    }
    const rest = join(into, `${name}-rest`);
    mkdirSync(rest, { recursive: true });
    for (const { entry } of entries.filter((one) => !largest.some((big) => big.entry === one.entry)))
      cpSync(join(library, entry), join(rest, entry), { recursive: true });
    folders.push(rest);
  }
  return folders;
}
