import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { buildSymbols } from '../../../src/index/symbols/build.js';
import { findSymbols, scoreName } from '../../../src/index/symbols/lookup.js';
import { runCli } from '../../helpers/process.js';
import { storedSymbols } from '../../helpers/symbols.js';

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
  const files = storedSymbols(root, home);
  assert.equal(
    findSymbols(files, 'cool').map((s) => `${s.kind} ${s.qualifiedName} ${s.path}:${s.line}`),
    ['method UserCache.cool lib/tool.py:4'],
  );
  assert.equal(
    findSymbols(files, 'User', { kind: 'class' }).map((s) => s.name),
    ['UserCache', 'UserRepository'],
  );
  assert.equal(findSymbols(files, 'gubi').map((s) => s.name)[0], 'getUserById');
});

test('a project reads new symbols once the symbol phase commits; a lookup holding the old ones keeps reading them', async () => {
  const { Project } = await import('../../../src/workspace/project.js');
  const tree = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-reload-')));
  writeFileSync(join(tree, 'a.ts'), 'export function oldName(): void {}\n');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(tree, { home });
  await buildSymbols(tree, IndexReader.open(tree, home).files, { home });
  const project = new Project(tree, { home });
  const before = project.symbols()!;
  assert.is(before.find('oldName')[0]!.name, 'oldName');
  writeFileSync(join(tree, 'a.ts'), 'export function newName(): void {}\n');
  await buildIndex(tree, { home, force: true });
  const rebuilt = await buildSymbols(tree, IndexReader.open(tree, home).files, { home, force: true });
  assert.is(rebuilt.written, 'full');
  // The old segment is gone from the folder, and still readable by whoever holds it.
  assert.equal(
    before.find('oldName').map((symbol) => symbol.name),
    ['oldName'],
  );
  assert.equal(
    project
      .symbols()!
      .find('newName')
      .map((symbol) => symbol.name),
    ['newName'],
    'the commit is seen',
  );
  assert.equal(
    project
      .symbols()!
      .find('oldName', { limit: 1 })
      .filter((symbol) => symbol.name === 'oldName'),
    [],
  );
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
  const json = JSON.parse((await runCli(['symbols', 'UserRepository', root, '--json'], '', { SEXTANT_HOME: home })).stdout) as {
    symbols: Array<{ kind: string; line: number; endLine: number }>;
  };
  assert.equal([json.symbols[0]!.kind, json.symbols[0]!.line, json.symbols[0]!.endLine], ['class', 1, 3]);
  assert.is((await runCli(['symbols', 'zzzz', root], '', { SEXTANT_HOME: home })).code, 1);
});

test('sync refreshes symbols too, parsing only what changed', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await runCli(['index', root], '', { SEXTANT_HOME: home });
  writeFileSync(join(root, 'lib/extra.ts'), 'export function freshlyAdded() {}\n');
  const synced = await runCli(['sync', root], '', { SEXTANT_HOME: home });
  assert.match(synced.stdout, /Symbols: \d+ in 3 files \(1 parsed, 2 unchanged, 0 removed; written\)/);
  const found = await runCli(['symbols', 'freshlyAdded', root], '', { SEXTANT_HOME: home });
  assert.equal(found.stdout.trim(), 'lib/extra.ts:1: function freshlyAdded  function freshlyAdded() {}');
});

test.run();
