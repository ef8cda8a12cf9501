/**
 * The CLI keeps its word (issue 25): what the README says of a flag, an exit code or an output
 * is what a run does.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';

async function indexed(files: Record<string, string>): Promise<{ root: string; env: Record<string, string> }> {
  const root = projectTree(files);
  const env = { SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')) };
  const run = await runCli(['index', root], '', env);
  assert.is(run.code, 0, run.stderr);
  return { root, env };
}

test('--lang takes a language in any case, and refuses one it does not know (exit 2, the known ones listed), never "no matches"', async () => {
  const { root, env } = await indexed({
    'get.py': 'from urllib.request import urlopen\n\ndef fetch(url):\n    return urlopen(url)\n',
    'get.go': 'package get\n\n// urlopen is mentioned here too\n',
  });
  const any = await runCli(['search', 'urlopen', root, '--lang', 'Python'], '', env);
  assert.is(any.code, 0, any.stderr);
  assert.match(any.stdout, 'get.py:');
  assert.not.match(any.stdout, 'get.go');
  const typo = await runCli(['search', 'urlopen', root, '--lang', 'pyhton'], '', env);
  assert.is(typo.code, 2);
  assert.match(typo.stderr, 'unknown language "pyhton" for --lang; known: ');
  assert.match(typo.stderr, 'python');
  assert.is(typo.stdout, '');
});

test('progress on a stderr that is not a terminal: plain lines, no terminal codes, no line twice, a stage begun and ended; the counts agree with the summary', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1_500; i++) files[`d${i % 30}/f${i}.ts`] = `export const v${i} = ${i};\n`;
  for (let i = 0; i < 20; i++) files[`bin/b${i}.dat`] = `binary\u0000${i}`;
  const root = projectTree(files);
  const env = { SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')) };
  const run = await runCli(['index', root], '', env);
  assert.is(run.code, 0, run.stderr);
  assert.not.match(run.stderr, /\r|\x1b\[/, 'no terminal codes in a log');
  const lines = run.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, new Set(lines).size, `a line repeated: ${run.stderr}`);
  const indexing = lines.filter((line) => line.startsWith('indexing:'));
  assert.ok(indexing.length >= 1 && indexing.length <= 6, `throttled: ${indexing.length} indexing lines`);
  assert.is(indexing.at(-1), 'indexing: 1520/1520 files read', 'the last line says where the stage ended');
  assert.match(run.stdout, /Indexed 1500 files .*skipped 20 binary/);
  assert.ok(
    lines.some((line) => line === 'symbols: 1500/1500 files, 1500 symbols'),
    run.stderr,
  );
  // A sync that parses one file: the progress counts files done, as its summary does.
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(root, 'd0/f0.ts'), 'export const v0 = 100;\nexport const w0 = 1;\n');
  const sync = await runCli(['sync', root], '', env);
  assert.is(sync.code, 0, sync.stderr);
  assert.match(sync.stderr, 'symbols: 1500/1500 files, 1501 symbols');
  assert.match(sync.stdout, '1 parsed, 1499 unchanged');
});

test('a search into a pipe leaves out the "more matches" note (the reader may be gone); --json says truncated', async () => {
  const { root, env } = await indexed({ 'a.txt': 'needle one\nneedle two\nneedle three\n' });
  const piped = await runCli(['search', 'needle', root, '--limit', '1'], '', env);
  assert.is(piped.code, 0);
  assert.is(piped.stdout.split('\n').filter(Boolean).length, 1);
  assert.is(piped.stderr, '', 'nothing after the reader may have stopped reading');
  const json = JSON.parse((await runCli(['search', 'needle', root, '--limit', '1', '--json'], '', env)).stdout) as { truncated: boolean };
  assert.is(json.truncated, true);
});

test('search takes a FILE, as rg does: only that file is searched', async () => {
  const { root, env } = await indexed({
    'src/one.ts': 'const needle = 1;\n',
    'src/two.ts': 'const needle = 2;\n',
    'src/we[ir]d {x}.ts': 'const needle = 3;\n',
  });
  const one = await runCli(['search', 'needle', join(root, 'src/one.ts')], '', env);
  assert.is(one.code, 0, one.stderr);
  assert.is(one.stdout, 'src/one.ts:1:7: const needle = 1;\n');
  const weird = await runCli(['search', 'needle', join(root, 'src/we[ir]d {x}.ts')], '', env);
  assert.is(weird.stdout, 'src/we[ir]d {x}.ts:1:7: const needle = 3;\n', 'a name with glob characters is that name');
  const missing = await runCli(['search', 'needle', join(root, 'src/none.ts')], '', env);
  assert.is(missing.code, 2);
});

test('the skipped account names examples for every reason: ignored paths, links out of the project and links to nothing', async () => {
  const { symlinkSync } = await import('node:fs');
  const root = projectTree({ '.gitignore': 'build/\n*.log\n', 'build/out.js': 'x\n', 'debug.log': 'x\n', 'src/a.ts': 'export const a = 1;\n' });
  const outside = projectTree({ 'secret.txt': 'x\n' });
  symlinkSync(join(outside, 'secret.txt'), join(root, 'src/out-link.txt'));
  symlinkSync(join(root, 'nothing-here'), join(root, 'src/broken-link.txt'));
  const env = { SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')) };
  const run = await runCli(['index', root], '', env);
  assert.is(run.code, 0, run.stderr);
  for (const named of ['2 ignored (build/, debug.log)', '1 outsideLinks (src/out-link.txt)', '1 brokenLinks (src/broken-link.txt)'])
    assert.match(run.stdout, named);
  // A second walk reuses the walk cache for unchanged directories: the names are still there.
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(root, 'src/b.ts'), 'export const b = 2;\n');
  assert.is((await runCli(['sync', root], '', env)).code, 0);
  const status = await runCli(['status', root], '', env);
  for (const named of ['2 ignored (build/, debug.log)', '1 outsideLinks (src/out-link.txt)', '1 brokenLinks (src/broken-link.txt)'])
    assert.match(status.stdout, named);
});

test('--help: serve flags under `serve --help` only, examples and environment at the top, every search flag described', async () => {
  const top = await runCli(['--help']);
  assert.is(top.code, 0);
  assert.not.match(top.stdout, /^\s+--(transport|auth-token|auto-index)\s/m, 'serve flags are not listed as global options');
  assert.match(top.stdout, 'Examples:');
  assert.match(top.stdout, 'Environment:');
  for (const name of ['SEXTANT_PROJECT', 'SEXTANT_HOME', 'SEXTANT_MAX_FILE_BYTES']) assert.match(top.stdout, name);
  assert.match(top.stdout, 'sextant serve --help');
  const serve = await runCli(['serve', '--help']);
  for (const flag of ['--transport', '--auth-token', '--project-from-cwd', '--auto-index']) assert.match(serve.stdout, flag);
  const search = await runCli(['search', '--help']);
  for (const flag of ['--case-sensitive', '--limit', '--json', '--jsonl', '--context']) {
    const line = search.stdout.split('\n').find((text) => text.trimStart().startsWith(flag + ' '));
    assert.ok(line, `${flag} is listed`);
    assert.ok(
      line!
        .replace(flag, '')
        .replace(/\[[^\]]*\]/g, '')
        .trim().length > 10,
      `${flag} is described: ${line}`,
    );
    assert.not.match(line!, '[string]');
  }
});

test('--jsonl: a match a line as found, then a summary line; --json is one document', async () => {
  const { root, env } = await indexed({ 'a.txt': 'needle one\nneedle two\n' });
  const lines = await runCli(['search', 'needle', root, '--jsonl'], '', env);
  assert.is(lines.code, 0, lines.stderr);
  const parsed = lines.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; path?: string; line?: number; matches?: number; truncated?: boolean });
  assert.equal(
    parsed.map((item) => [item.type, item.line]),
    [
      ['match', 1],
      ['match', 2],
      ['summary', undefined],
    ],
  );
  assert.equal([parsed[2]!.matches, parsed[2]!.truncated], [2, false]);
  const doc = JSON.parse((await runCli(['search', 'needle', root, '--json'], '', env)).stdout) as { matches: unknown[] };
  assert.is(doc.matches.length, 2);
  assert.is((await runCli(['search', 'needle', root, '--json', '--jsonl'], '', env)).code, 2);
});

test('list shows every index and its size; remove takes one back (never while a job writes it); remove --gone those whose project is gone', async () => {
  const { existsSync, rmSync } = await import('node:fs');
  const { IndexStore } = await import('../../src/index/store/store.js');
  const env = { SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')) };
  const kept = projectTree({ 'a.ts': 'export const a = 1;\n' });
  const deleted = projectTree({ 'b.ts': 'export const b = 1;\n' });
  for (const root of [kept, deleted]) assert.is((await runCli(['index', root], '', env)).code, 0);
  const listedBefore = JSON.parse((await runCli(['list', '--json'], '', env)).stdout) as {
    indexes: Array<{ root: string; files: number; diskBytes: number; gone: boolean; indexDir: string }>;
    diskBytes: number;
  };
  assert.equal(listedBefore.indexes.map((index) => index.root).sort(), [kept, deleted].sort());
  assert.ok(listedBefore.indexes.every((index) => index.files === 1 && index.diskBytes > 0 && !index.gone));
  assert.is(
    listedBefore.diskBytes,
    listedBefore.indexes.reduce((sum, index) => sum + index.diskBytes, 0),
  );
  rmSync(deleted, { recursive: true });
  const text = await runCli(['list'], '', env);
  assert.match(text.stdout, `${deleted}: 1 files`);
  assert.match(text.stdout, '(project folder gone)');
  assert.match(text.stdout, /2 indexes, [\d.]+ MB in /);
  // A job writing the index: remove refuses, exit 2, and the index stays.
  const store = new IndexStore(kept, env.SEXTANT_HOME);
  store.startJob({ mode: 'sync', pid: process.pid, startedAt: new Date().toISOString(), stage: 'indexing', done: 0, total: 1 });
  const busy = await runCli(['remove', kept], '', env);
  assert.is(busy.code, 2);
  assert.match(busy.stderr, `is writing the index of ${kept}`);
  store.endJob();
  const removed = await runCli(['remove', kept], '', env);
  assert.is(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, `Removed the index of ${kept}`);
  assert.ok(existsSync(kept), 'the project itself is untouched');
  assert.is((await runCli(['remove', kept], '', env)).code, 2, 'no index left to remove');
  const gone = await runCli(['remove', '--gone'], '', env);
  assert.match(gone.stdout, '1 index removed');
  assert.equal((JSON.parse((await runCli(['list', '--json'], '', env)).stdout) as { indexes: unknown[] }).indexes, []);
});

test.run();
