// The import picture of src/: which room imports which (static imports, types included; a dynamic
// import() loads lazily and is left out). Rooms are the folders of src/, the index's own rooms
// (index/text, index/files, ...), and the files at src/'s top. Printed as the table docs/README.md
// shows:  node scripts/import-picture.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const files = (dir) =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));
const roomOf = (path) => {
  const parts = path.split('/');
  if (parts[0] === 'index' && parts.length > 2) return `index/${parts[1]}`;
  return parts[0].replace(/\.(ts|js)$/, '');
};
const imports = new Map();
for (const file of files(SRC)) {
  const from = roomOf(relative(SRC, file));
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?:type\s+)?(?:[^;]*?from\s+)?'(\.[^']+)'/gm)) {
    const to = roomOf(relative(SRC, resolve(dirname(file), spec)));
    if (to === from) continue;
    if (!imports.has(from)) imports.set(from, new Set());
    imports.get(from).add(to);
  }
}
console.log('| room | imports |');
console.log('| --- | --- |');
for (const [room, targets] of [...imports].sort(([a], [b]) => a.localeCompare(b))) console.log(`| ${room} | ${[...targets].sort().join(', ')} |`);
