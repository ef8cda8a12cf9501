import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../src/index/indexer.js';
import { IndexReader } from '../src/index/search.js';
import { IndexStore } from '../src/index/store.js';
import { buildSymbols, readSymbols } from '../src/index/symbols/build.js';
import { findSymbols, scoreName } from '../src/index/symbols/lookup.js';
import { runCli } from './helpers/process.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-symbols-')));
mkdirSync(join(root, 'lib'));
writeFileSync(join(root, 'lib/users.ts'), 'export class UserRepository {\n  getUserById(id: string) { return id; }\n}\nexport function get_user_name() {}\n');
writeFileSync(join(root, 'lib/tool.py'), 'def get_user(): pass\nclass UserCache:\n    def warm(self): pass\n');
writeFileSync(join(root, 'README.md'), '# no symbols here\n');

test('names match exactly, case-insensitively, by prefix and fuzzily (camelCase and snake_case)', () => {
  assert.is(scoreName('getUserById', 'getUserById'), 100);
  assert.is(scoreName('getUserById', 'getuserbyid'), 90);
  assert.is(scoreName('getUserById', 'getUser'), 80);
  assert.is(scoreName('getUserById', 'GETUSER'), 70);
  assert.ok(scoreName('getUserById', 'gUBI') > 0);
  assert.ok(scoreName('getUserById', 'get_user_by_id') > 0);
  assert.ok(scoreName('get_user_name', 'gun') > 0);
  assert.is(scoreName('getUserById', 'xyz'), 0);
});

test('the symbol phase runs after the text index, in workers, and reuses unchanged files', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const first = await buildSymbols(root, IndexReader.open(root, home).files, { home, threads: 2 });
  assert.equal([first.files, first.parsed, first.reused], [2, 2, 0]);
  writeFileSync(join(root, 'lib/tool.py'), 'def get_user(): pass\nclass UserCache:\n    def warm(self): pass\n    def cool(self): pass\n');
  await buildIndex(root, { home });
  const second = await buildSymbols(root, IndexReader.open(root, home).files, { home });
  assert.equal([second.parsed, second.reused], [1, 1]);
  const files = readSymbols(new IndexStore(root, home));
  assert.equal(findSymbols(files, 'cool').map((s) => `${s.kind} ${s.qualifiedName} ${s.path}:${s.line}`), ['method UserCache.cool lib/tool.py:4']);
  assert.equal(findSymbols(files, 'User', { kind: 'class' }).map((s) => s.name), ['UserCache', 'UserRepository']);
  assert.equal(findSymbols(files, 'gubi').map((s) => s.name)[0], 'getUserById');
});

test('the persistent name index gives exactly what a scan of every symbol gives, on a real tree', async () => {
  const { NameIndex } = await import('../src/index/symbols/names.js');
  const { ROOT } = await import('./helpers/process.js');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const tree = realpathSync(join(ROOT, 'src'));
  await buildIndex(tree, { home });
  await buildSymbols(tree, IndexReader.open(tree, home).files, { home });
  const store = new IndexStore(tree, home);
  const files = readSymbols(store);
  const index = NameIndex.load(store)!;
  assert.is(index.size, files.reduce((sum, file) => sum + file.symbols.length, 0));
  const queries = ['search', 'Search', 'SEARCH', 'IndexReader', 'indexreader', 'IndexReader.search', 'McpSession.#handle', 'idx', 'rdr', 'gRI', 'to_err', 'x', 'zzzz', 'constructor', 'run', '_', '.-'];
  for (const query of queries) {
    for (const options of [{}, { limit: 1 }, { limit: 5 }, { limit: 500 }, { kind: 'method' }, { kind: 'class', limit: 3 }]) {
      assert.equal(index.find(query, options), findSymbols(files, query, options), `${query} ${JSON.stringify(options)}`);
    }
  }
  assert.ok(index.find('IndexReader.search').some((symbol) => symbol.qualifiedName === 'IndexReader.search'), 'qualified names match whole');
  // The reference file answers as the references inside every file's symbols do.
  const { ReferenceIndex } = await import('../src/index/symbols/references.js');
  const stored = ReferenceIndex.load(store)!;
  const rebuilt = ReferenceIndex.fromFiles(files);
  for (const file of files) {
    assert.equal(stored.inFile(file.path), rebuilt.inFile(file.path), file.path);
    assert.is(stored.inFile(file.path).length, file.references?.length ?? 0, file.path);
  }
  for (const name of ['search', 'push', 'join', 'JSON', 'nope_not_called']) assert.equal(stored.named(name), rebuilt.named(name), name);
  assert.ok(stored.named('join').length > 5);
});

test('a project reloads its symbols once the symbol phase has written all of them, never a mix', async () => {
  const { Project } = await import('../src/workspace/project.js');
  const { writeAtomic } = await import('../src/index/store.js');
  const { SYMBOLS_META_FILE } = await import('../src/index/symbols/build.js');
  const { NAMES_FILE } = await import('../src/index/symbols/names.js');
  const { readFileSync } = await import('node:fs');
  const tree = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-reload-')));
  writeFileSync(join(tree, 'a.ts'), 'export function oldName(): void {}\n');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(tree, { home });
  await buildSymbols(tree, IndexReader.open(tree, home).files, { home });
  const store = new IndexStore(tree, home);
  const project = new Project(tree, { home });
  assert.is(project.symbols().names!.find('oldName')[0]!.name, 'oldName');
  // The next symbol phase, caught between its writes: symbols.json is new, names.json not yet.
  writeFileSync(join(tree, 'a.ts'), 'export function newName(): void {}\n');
  await buildIndex(tree, { home });
  const saved = (file: string): string => readFileSync(join(store.dir, file), 'utf8');
  const before = { names: saved(NAMES_FILE), meta: saved(SYMBOLS_META_FILE) };
  await buildSymbols(tree, IndexReader.open(tree, home).files, { home });
  const after = { names: saved(NAMES_FILE), meta: saved(SYMBOLS_META_FILE) };
  writeAtomic(join(store.dir, NAMES_FILE), before.names);
  writeAtomic(join(store.dir, SYMBOLS_META_FILE), before.meta);
  project.symbols().names; // a read in the middle: symbols.json new, the rest old
  writeAtomic(join(store.dir, NAMES_FILE), after.names);
  writeAtomic(join(store.dir, SYMBOLS_META_FILE), after.meta);
  assert.equal(project.symbols().names!.find('newName').map((symbol) => symbol.name), ['newName'], 'the finished phase is seen');
  await project.close();
});

test('sextant index builds symbols too; sextant symbols finds them, with exit 1 for none', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const indexed = await runCli(['index', root], '', { SEXTANT_HOME: home });
  assert.match(indexed.stdout, /Symbols: 7 in 2 files/); // tool.py gained `cool` in the test above
  const found = await runCli(['symbols', 'getUser', root], '', { SEXTANT_HOME: home });
  assert.is(found.code, 0, found.stderr);
  assert.equal(found.stdout.trim().split('\n').slice(0, 2), [
    'lib/users.ts:2: method UserRepository.getUserById  getUserById(id: string) { return id; }',
    'lib/tool.py:1: function get_user  def get_user(): pass',
  ]);
  const json = JSON.parse((await runCli(['symbols', 'UserRepository', root, '--json'], '', { SEXTANT_HOME: home })).stdout) as { symbols: Array<{ kind: string; line: number; endLine: number }> };
  assert.equal([json.symbols[0]!.kind, json.symbols[0]!.line, json.symbols[0]!.endLine], ['class', 1, 3]);
  assert.is((await runCli(['symbols', 'zzzz', root], '', { SEXTANT_HOME: home })).code, 1);
});

test('sync refreshes symbols too, parsing only what changed', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await runCli(['index', root], '', { SEXTANT_HOME: home });
  writeFileSync(join(root, 'lib/extra.ts'), 'export function freshlyAdded() {}\n');
  const synced = await runCli(['sync', root], '', { SEXTANT_HOME: home });
  assert.match(synced.stdout, /Symbols: \d+ in 3 files \(1 parsed, 2 unchanged\)/);
  const found = await runCli(['symbols', 'freshlyAdded', root], '', { SEXTANT_HOME: home });
  assert.equal(found.stdout.trim(), 'lib/extra.ts:1: function freshlyAdded  function freshlyAdded() {}');
});

test.run();
