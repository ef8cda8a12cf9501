import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from '../helpers/process.js';

const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
const env = { SEXTANT_HOME: home };
const project = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-project-')));
mkdirSync(join(project, 'src'));
writeFileSync(join(project, 'src/app.py'), 'def main():\n    print("Hello, World")\n\nmain()\n');
writeFileSync(join(project, 'src/util.ts'), 'export function hello(name: string) {\n  return `hello ${name}`;\n}\n');

test('status before indexing says how to index; index prints a summary; status then counts the files', async () => {
  const before = await runCli(['status', project], '', env);
  assert.is(before.code, 2, "an unindexed project is exit 2, as the README's table says");
  assert.match(before.stderr, `is not indexed yet: run "sextant index ${project}"`);
  const beforeJson = await runCli(['status', project, '--json'], '', env);
  assert.is(beforeJson.code, 2);
  assert.is((JSON.parse(beforeJson.stdout) as { indexed: boolean }).indexed, false);
  const indexed = await runCli(['index', project], '', env);
  assert.is(indexed.code, 0, indexed.stderr);
  assert.match(indexed.stdout, /Indexed 2 files \([\d.]+ (KB|B)\)/, 'a small project in KB or bytes, not "0.0 MB"');
  assert.match(indexed.stdout, /^Done in [\d.]+ s$/m, 'the whole time, last');
  assert.match(indexed.stderr, 'indexing:', 'plain progress lines when stderr is not a terminal');
  assert.match(indexed.stderr, 'symbols: 2/2 files, ', 'the symbol phase counts too, as plain lines');
  // Every part of the index on disk, not only the text segments.
  assert.match(indexed.stdout, /Index on disk: [\d.]+ K?B: text segments [\d.]+ K?B, symbols [\d.]+ K?B, name index [\d.]+ K?B, references [\d.]+ K?B/);
  assert.not.match(indexed.stdout, '% of source', 'no ratio for a tiny project: its index is mostly fixed overhead');
  const after = await runCli(['status', project, '--json'], '', env);
  const status = JSON.parse(after.stdout) as { indexed: boolean; files: number; interruptedJob: unknown; diskBytes: Record<string, number> };
  assert.equal([status.indexed, status.files, status.interruptedJob], [true, 2, null]);
  const { total, ...parts } = status.diskBytes;
  assert.is(
    total,
    Object.values(parts).reduce((sum, bytes) => sum + bytes, 0),
  );
  assert.ok(parts.segments! > 0 && parts.symbols! > 0 && parts.names! > 0, JSON.stringify(status.diskBytes));
  assert.match((await runCli(['status', project], '', env)).stdout, 'Index on disk:');
});

test('search prints path:line:col: text like rg, --json for machines, filters by language and glob', async () => {
  const text = await runCli(['search', 'hello', project], '', env);
  assert.is(text.code, 0);
  assert.equal(text.stdout.trim().split('\n'), [
    'src/app.py:2:12:     print("Hello, World")',
    'src/util.ts:1:17: export function hello(name: string) {',
    'src/util.ts:2:11:   return `hello ${name}`;',
  ]);
  const sensitive = await runCli(['search', 'Hello', project, '--case-sensitive', '--json'], '', env);
  const result = JSON.parse(sensitive.stdout) as { matches: Array<{ path: string; line: number }> };
  assert.equal(
    result.matches.map((m) => `${m.path}:${m.line}`),
    ['src/app.py:2'],
  );
  const python = await runCli(['search', 'hello', project, '--lang', 'python'], '', env);
  assert.is(python.stdout.trim().split('\n').length, 1);
  const glob = await runCli(['search', 'hello', project, '--glob', '*.ts', '--context', '1'], '', env);
  assert.match(glob.stdout, 'src/util.ts-2-');
});

test('exit 1 when nothing matches, 2 for a bad regex, an unindexed folder or a missing path, for every command', async () => {
  assert.is((await runCli(['search', 'no-such-text-anywhere', project], '', env)).code, 1);
  const bad = await runCli(['search', 'a(b', project, '--regex'], '', env);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, 'Invalid regular expression /a(b/: Unterminated group');
  const unindexed = await runCli(['search', 'x', realpathSync(mkdtempSync(join(tmpdir(), 'sextant-empty-')))], '', env);
  assert.is(unindexed.code, 2);
  assert.match(unindexed.stderr, 'is not indexed yet: run "sextant index');
  const missing = await runCli(['search', 'x', '/no/such/dir'], '', env);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, 'No such directory: /no/such/dir');
  const missingIndex = await runCli(['index', '/no/such/dir'], '', env);
  assert.is(missingIndex.code, 2, 'an error is 2 for every command');
  assert.match(missingIndex.stderr, 'No such directory');
});

test("outline lists a file's symbols with their lines; --json gives the details; unknown languages are an error", async () => {
  const outline = await runCli(['outline', join(project, 'src/util.ts')], '', env);
  assert.is(outline.code, 0, outline.stderr);
  assert.is(outline.stdout.trim(), 'function hello  1-3  function hello(name: string)');
  const json = JSON.parse((await runCli(['outline', join(project, 'src/app.py'), '--json'], '', env)).stdout) as {
    language: string;
    symbols: Array<{ name: string; kind: string; line: number }>;
  };
  assert.is(json.language, 'python');
  assert.equal(
    json.symbols.map((s) => [s.kind, s.name, s.line]),
    [['function', 'main', 1]],
  );
  writeFileSync(join(project, 'notes.xyz'), 'plain text\n');
  const unknown = await runCli(['outline', join(project, 'notes.xyz')], '', env);
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, 'No symbol support');
});

test('from a subdirectory the project is found upward and the search covers that directory, as rg does', async () => {
  mkdirSync(join(project, 'src/deep'), { recursive: true });
  writeFileSync(join(project, 'src/deep/inner.ts'), 'export const hello_inner = 1;\n');
  assert.is((await runCli(['sync', project], '', env)).code, 0);
  const fromSub = await runCli(['search', 'hello'], '', env, join(project, 'src/deep'));
  assert.is(fromSub.code, 0, fromSub.stderr);
  assert.equal(fromSub.stdout.trim().split('\n'), ['src/deep/inner.ts:1:14: export const hello_inner = 1;'], 'only the subdirectory, paths project-relative');
  const fromSrc = await runCli(['search', 'hello', '--glob', '*.ts'], '', env, join(project, 'src'));
  assert.equal(
    fromSrc.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(':')[0]),
    ['src/util.ts', 'src/util.ts'],
    'a glob is relative to the directory searched',
  );
  const symbols = await runCli(['symbols', 'hello'], '', env, join(project, 'src/deep'));
  assert.is(symbols.code, 0, symbols.stderr);
  assert.match(symbols.stdout, 'src/util.ts:1: function hello', 'symbols come from the whole project');
  const status = JSON.parse((await runCli(['status', '--json'], '', env, join(project, 'src/deep'))).stdout) as { root: string; indexed: boolean };
  assert.equal([status.root, status.indexed], [project, true]);
  const outside = await runCli(['search', 'hello'], '', env, realpathSync(mkdtempSync(join(tmpdir(), 'sextant-elsewhere-'))));
  assert.is(outside.code, 2);
  assert.match(outside.stderr, 'is not indexed yet');
});

test("an index is found by its folder's name and its manifest's root: namesakes stay apart, damage is reported as damage", async () => {
  const ownHome = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const ownEnv = { SEXTANT_HOME: ownHome };
  const first = join(realpathSync(mkdtempSync(join(tmpdir(), 'sextant-a-'))), 'app');
  const second = join(realpathSync(mkdtempSync(join(tmpdir(), 'sextant-b-'))), 'app');
  mkdirSync(join(first, 'lib/app'), { recursive: true });
  mkdirSync(second);
  writeFileSync(join(first, 'lib/app/a.txt'), 'alpha_marker\n');
  writeFileSync(join(second, 'b.txt'), 'beta_marker\n');
  for (const root of [first, second]) assert.is((await runCli(['index', root], '', ownEnv)).code, 0);
  assert.equal(readdirSync(join(ownHome, 'projects')).filter((name) => name.startsWith('app-')).length, 2, 'two folders named after "app"');

  const inSecond = await runCli(['search', 'alpha_marker'], '', ownEnv, second);
  assert.is(inSecond.code, 1, 'the other "app" is not searched');
  assert.is((await runCli(['search', 'beta_marker'], '', ownEnv, second)).stdout, 'b.txt:1:1: beta_marker\n');
  // An unindexed directory named like the indexed ones: its project is found upward.
  const nested = await runCli(['search', 'alpha_marker'], '', ownEnv, join(first, 'lib/app'));
  assert.is(nested.stdout, 'lib/app/a.txt:1:1: alpha_marker\n', nested.stderr);
  const symbols = await runCli(['symbols', 'nothing_like_it'], '', ownEnv, second);
  assert.is(symbols.code, 1, symbols.stderr);

  const [folder] = readdirSync(join(ownHome, 'projects')).filter(
    (name) =>
      existsSync(join(ownHome, 'projects', name, 'manifest.json')) &&
      readFileSync(join(ownHome, 'projects', name, 'manifest.json'), 'utf8').includes(JSON.stringify(second)),
  );
  writeFileSync(join(ownHome, 'projects', folder!, 'manifest.json'), '{"format": 5, "root": ');
  const damaged = await runCli(['search', 'beta_marker'], '', ownEnv, second);
  assert.is(damaged.code, 2);
  assert.match(damaged.stderr, /corrupt/i);
  assert.not.match(damaged.stderr, 'not indexed');
  assert.is((await runCli(['search', 'alpha_marker', first], '', ownEnv)).code, 0, 'the namesake is unaffected');
});

test('bad flag values, an empty query, unknown flags and unreadable files are usage errors (exit 2) with a clear message', async () => {
  for (const [args, message] of [
    [['search', 'hello', project, '--limit', 'abc'], '--limit must be a whole number of at least 1 (got "abc")'],
    [['search', 'hello', project, '--limit', '-5'], '--limit must be a whole number of at least 1 (got "-5")'],
    [['search', 'hello', project, '--limit', '0'], '--limit must be a whole number of at least 1 (got "0")'],
    [['search', 'hello', project, '--context', '-1'], '--context must be a whole number of at least 0 (got "-1")'],
    [['symbols', 'hello', project, '--limit', '2.5'], '--limit must be a whole number of at least 1 (got "2.5")'],
    [['search', '', project], 'the query is empty'],
    [['symbols', '', project], 'the name is empty'],
    [['index', join(project, 'src/util.ts')], 'is a file, not a directory'],
    [['outline', join(project, 'no-such.ts')], `No such file: ${join(project, 'no-such.ts')}`],
    [['outline', join(project, 'src')], 'is a directory: outline takes one source file'],
  ] as const) {
    const run = await runCli([...args], '', env);
    assert.is(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
    assert.not.match(run.stderr, /ENOENT|EISDIR| {4}at /, 'no errno names or stack traces');
  }
  const unknown = await runCli(['search', 'hello', project, '--bogus-flag'], '', env);
  assert.is(unknown.code, 2);
  assert.is((unknown.stderr.match(/bogus/gi) ?? []).length, 1, `the flag is named once: ${unknown.stderr}`);
  const ok = await runCli(['search', 'hello', project, '--limit', '1', '--context', '0'], '', env);
  assert.is(ok.code, 0, ok.stderr);
  assert.is(ok.stdout.trim().split('\n').length, 1);
});

test('files over the size limit are named wherever the index is reported, and a search says it could not look in them', async () => {
  const big = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-big-')));
  writeFileSync(join(big, 'small.ts'), 'export const needle_small = 1;\n');
  writeFileSync(join(big, 'huge.ts'), `export const needle_huge = 1;\n${'// padding\n'.repeat(400)}`);
  const limited = { ...env, SEXTANT_MAX_FILE_BYTES: '2000' };
  const indexed = await runCli(['index', big], '', limited);
  assert.is(indexed.code, 0, indexed.stderr);
  assert.match(indexed.stdout, 'skipped 1 tooLarge (huge.ts)');
  const status = await runCli(['status', big], '', limited);
  assert.match(status.stdout, 'skipped 1 tooLarge (huge.ts)');
  const statusJson = JSON.parse((await runCli(['status', big, '--json'], '', limited)).stdout) as {
    skipped: Record<string, number>;
    skippedExamples: Record<string, string[]>;
  };
  assert.equal([statusJson.skipped.tooLarge, statusJson.skippedExamples.tooLarge], [1, ['huge.ts']]);
  const search = await runCli(['search', 'needle', big], '', limited);
  assert.is(search.code, 0, search.stderr);
  assert.equal(search.stdout.trim().split('\n'), ['small.ts:1:14: export const needle_small = 1;']);
  assert.match(search.stderr, 'note: 1 file was not indexed (too large or unreadable), so not searched: huge.ts');
  // A sync walks the tree again and keeps the account current: a file grown past the limit leaves the index and is named.
  writeFileSync(join(big, 'small.ts'), `export const needle_small = 2;\n${'// padding\n'.repeat(400)}`);
  writeFileSync(join(big, 'huge.ts'), 'export const needle_huge = 2;\n');
  const synced = await runCli(['sync', big], '', limited);
  assert.is(synced.code, 0, synced.stderr);
  assert.match((await runCli(['status', big], '', limited)).stdout, 'skipped 1 tooLarge (small.ts)');
  assert.equal((await runCli(['search', 'needle', big], '', limited)).stdout.trim().split('\n'), ['huge.ts:1:14: export const needle_huge = 2;']);
  // The default limit (16 MiB) takes it, and a bad limit is refused.
  assert.is((await runCli(['index', big], '', env)).code, 0);
  const found = await runCli(['search', 'needle', big], '', env);
  assert.equal(
    found.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(':')[0]),
    ['huge.ts', 'small.ts'],
  );
  assert.not.match((await runCli(['status', big], '', env)).stdout, 'tooLarge');
  assert.not.match(found.stderr, 'note:');
  const bad = await runCli(['index', big], '', { ...env, SEXTANT_MAX_FILE_BYTES: 'lots' });
  assert.is(bad.code, 2);
  assert.match(bad.stderr, 'SEXTANT_MAX_FILE_BYTES must be a whole number of bytes');
});

test('a reader that stops early (| head -1) ends the command quietly with status 0, as rg does', async () => {
  const { spawn } = await import('node:child_process');
  const { BIN } = await import('../helpers/process.js');
  for (let i = 0; i < 40; i++)
    writeFileSync(join(project, `src/many-${i}.ts`), Array.from({ length: 200 }, (_, n) => `export const hello_${i}_${n} = ${n};`).join('\n'));
  assert.is((await runCli(['sync', project], '', env)).code, 0);
  for (const args of [
    ['search', 'hello', project, '--limit', '8000'],
    ['symbols', 'hello', project, '--limit', '5000'],
  ]) {
    // The reading end is closed before the command writes: every write meets a closed pipe.
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.is(code, 0, `${args[0]}: ${stderr}`);
    assert.not.match(stderr, 'EPIPE');
  }
});

test.run();
