/**
 * The .mjs bundle loads only what a command uses: a loader hook records every file the process
 * loads, and the chunks `--version` and `search` load must not hold JSON Schema validation
 * (ajv), the parser (web-tree-sitter) or the MCP server. esbuild names each module it bundles
 * in a `// path` comment, which is what is looked for.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../../src/index/build/indexer.js';
import { BIN, ROOT } from '../helpers/process.js';

const HEAVY = ['node_modules/ajv/', 'node_modules/web-tree-sitter/', 'src/mcp/server.ts', 'src/mcp/session.ts', 'src/transports/stdio.ts', 'node_modules/ws/'];
/** The team server's control plane: loaded only with a database URL. */
const POSTGRES = ['node_modules/postgres/', 'src/coordination/pg/index.ts'];
/** What only builds an index or serves searches from workers: a one-shot search needs none of it. */
const INDEXING = [
  'src/index/build/indexer.ts',
  'src/index/files/walk.ts',
  'src/index/files/walk-cache.ts',
  'src/index/build/text-extract.ts',
  'src/index/search/threads/pool.ts',
];

/** The files a run of the bundle loaded (besides Node's own). */
async function loadedBy(args: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-loads-'));
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.startsWith('file:') || url.startsWith('node:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');\n  return next(url, context);\n}\n`,
  );
  const register = join(dir, 'register.mjs');
  // Node's own modules are also listed at exit, which sees those loaded by process.getBuiltinModule too.
  const internals = join(dir, 'internals.txt');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nimport { writeFileSync } from 'node:fs';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\nprocess.on('exit', () => writeFileSync(${JSON.stringify(internals)}, process.moduleLoadList.join('\\n')));\n`,
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  assert.ok(code === 0 || code === 1, `exit ${code}`);
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  builtins = urls.filter((url) => url.startsWith('node:'));
  nodeModules = readFileSync(internals, 'utf8').split('\n');
  return urls.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
}

/** The built-in modules the last `loadedBy` run imported. */
let builtins: string[] = [];
/** Node's own modules the last `loadedBy` run had loaded by its exit (`NativeModule crypto`...). */
let nodeModules: string[] = [];

function heavyIn(files: string[], parts = HEAVY): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return parts.filter((part) => text.includes(`// ${part}`)).map((part) => `${file}: ${part}`);
  });
}

test('--version and search load neither ajv, nor the parser, nor the MCP server; search no indexing code', async () => {
  const version = await loadedBy(['--version'], {});
  assert.ok(version.includes(BIN), 'the entry itself was seen');
  assert.equal(heavyIn(version), []);
  assert.ok(builtins.length > 0, 'built-ins are seen');
  assert.not.ok(builtins.includes('node:worker_threads'), `--version loads no worker_threads: ${builtins.join(', ')}`);
  const indexModules = version.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/^\/\/ (src\/index\/\S+)$/gm)].map((match) => match[1]));
  assert.equal(indexModules, ['src/index/symbols/types.ts'], '--version loads nothing of the index but the symbol kinds');

  const root = mkdtempSync(join(tmpdir(), 'sextant-loads-project-'));
  writeFileSync(join(root, 'a.ts'), 'export function loadedMarker(): number {\n  return 1;\n}\n');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const search = await loadedBy(['search', 'loadedMarker', root], { SEXTANT_HOME: home });
  assert.ok(search.length > version.length, 'search loads its own chunks');
  assert.equal(heavyIn(search), []);
  assert.equal(heavyIn(search, INDEXING), [], 'search loads no indexing code');
  assert.not.ok(builtins.includes('node:worker_threads'), `search starts no workers: ${builtins.join(', ')}`);
  assert.ok(nodeModules.includes('NativeModule fs'), "Node's own modules are seen");
  assert.not.ok(nodeModules.includes('NativeModule crypto'), 'search hashes nothing: node:crypto is not loaded');
});

test('serve loads the conformance fixtures only for --profile conformance', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  // stdin is /dev/null: the server starts, reads EOF and stops.
  const served = await loadedBy(['serve', '--no-watch'], { SEXTANT_HOME: home });
  assert.ok(
    heavyIn(served).some((hit) => hit.endsWith(': src/mcp/session.ts')),
    'the server itself was loaded',
  );
  assert.equal(heavyIn(served, ['src/conformance/']), [], 'the default profile loads no fixture');
  assert.equal(heavyIn(served, POSTGRES), [], 'files alone: no PostgreSQL client is loaded');
  const conformance = await loadedBy(['serve', '--no-watch', '--profile', 'conformance'], { SEXTANT_HOME: home });
  assert.ok(heavyIn(conformance, ['src/conformance/']).length > 0, 'the conformance profile loads them');
});

test('what the check looks for is in the bundle: every heavy part is in some chunk', () => {
  const chunks = readdirSync(join(ROOT, 'dist'))
    .filter((name) => name.endsWith('.mjs'))
    .map((name) => join(ROOT, 'dist', name));
  const found = heavyIn(chunks);
  const indexing = [...heavyIn(chunks, INDEXING), ...heavyIn(chunks, POSTGRES)];
  for (const part of [...HEAVY, ...INDEXING, ...POSTGRES])
    assert.ok(
      [...found, ...indexing].some((hit) => hit.endsWith(`: ${part}`)),
      `${part} is bundled somewhere`,
    );
});

test.run();
