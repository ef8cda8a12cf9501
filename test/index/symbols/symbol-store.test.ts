/**
 * The binary symbol store: deltas, folds and deletions answer exactly as a scan of every
 * current file's symbols; a no-op phase writes nothing; --force parses everything; an
 * interrupted phase leaves the previous symbols answering; unreadable symbols are named.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { IndexReader } from '../../../src/index/search/reader.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { buildSymbols } from '../../../src/index/symbols/build.js';
import { SymbolExtractor } from '../../../src/index/symbols/extract.js';
import { findSymbols, type FileSymbols } from '../../../src/index/symbols/lookup.js';
import { compareKeys } from '../../../src/index/symbols/segment/segment-layout.js';
import { SymbolIndex } from '../../../src/index/symbols/symbol-index.js';
import { SYMBOLS_MANIFEST } from '../../../src/index/symbols/symbol-manifest.js';
import { syncIndex } from '../../../src/index/build/sync.js';
import { Project } from '../../../src/workspace/project.js';
import { ROOT, runCli } from '../../helpers/process.js';

function copyOf(tree: string): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-store-')));
  cpSync(join(ROOT, tree), root, { recursive: true });
  return root;
}

/** Every indexed file parsed afresh: what the store must be equivalent to. */
async function parsedNow(root: string, home: string): Promise<FileSymbols[]> {
  const extractor = await SymbolExtractor.create();
  const files: FileSymbols[] = [];
  for (const file of IndexReader.open(root, home).files) {
    if (!SymbolExtractor.supports(file.language)) continue;
    const { symbols, references } = await extractor.extract(file.language!, readFileSync(join(root, file.path), 'utf8'));
    files.push({ path: file.path, hash: file.hash, symbols, references });
  }
  return files.sort((a, b) => compareKeys(a.path, b.path));
}

const QUERIES = [
  'search',
  'Search',
  'SEARCH',
  'IndexReader',
  'indexreader',
  'IndexReader.search',
  'McpSession.handle',
  'idx',
  'rdr',
  'gRI',
  'to_err',
  'x',
  'zzzz',
  'constructor',
  'run',
  '_',
  '.-',
  'changedFn',
  'addedFn',
];

/** The store answers every kind of lookup as a scan of `files` does. */
function assertEquivalent(index: SymbolIndex, files: FileSymbols[], label: string): void {
  assert.equal(
    index.paths,
    files.map((file) => file.path),
    `${label}: the files with symbols`,
  );
  for (const query of QUERIES) {
    for (const options of [{}, { limit: 1 }, { limit: 5 }, { limit: 500 }, { kind: 'method' }, { kind: 'class', limit: 3 }]) {
      assert.equal(index.find(query, options), findSymbols(files, query, options), `${label}: find ${query} ${JSON.stringify(options)}`);
    }
    const definitions = files
      .flatMap((file) =>
        file.symbols.filter((symbol) => symbol.name === query || symbol.qualifiedName === query).map((symbol) => ({ symbol, path: file.path })),
      )
      .sort((a, b) => compareKeys(a.path, b.path) || a.symbol.line - b.symbol.line);
    assert.equal(
      index.definitions(query).map((d) => `${d.path}:${d.symbol.line}:${d.symbol.qualifiedName}`),
      definitions.map((d) => `${d.path}:${d.symbol.line}:${d.symbol.qualifiedName}`),
      `${label}: definitions ${query}`,
    );
  }
  const byPosition = (a: { line: number; column: number; name: string }, b: { line: number; column: number; name: string }): number =>
    a.line - b.line || a.column - b.column || compareKeys(a.name, b.name);
  for (const file of files) {
    assert.equal(index.symbolsIn(file.path), [...file.symbols].sort(byPosition), `${label}: symbols of ${file.path}`);
    assert.equal(
      index
        .referencesIn(file.path)
        .map(({ path: _path, ...reference }) => reference)
        .sort(byPosition),
      [...(file.references ?? [])].sort(byPosition),
      `${label}: references in ${file.path}`,
    );
  }
  for (const name of ['search', 'push', 'join', 'JSON', 'changedFn', 'nope_not_called']) {
    const expected = files.flatMap((file) =>
      (file.references ?? []).filter((reference) => reference.name === name).map((reference) => `${file.path}:${reference.line}:${reference.column}`),
    );
    assert.equal(
      index
        .referencesTo(name)
        .map((reference) => `${reference.path}:${reference.line}:${reference.column}`)
        .sort(),
      expected.sort(),
      `${label}: references to ${name}`,
    );
  }
}

async function symbolPhase(root: string, home: string, options: { force?: boolean; threads?: number } = {}) {
  return buildSymbols(root, IndexReader.open(root, home).files, { home, ...options });
}

function openIndex(root: string, home: string): SymbolIndex {
  return SymbolIndex.open(new IndexStore(root, home))!;
}

test('deltas, folded deltas and a full fold answer exactly as a scan of every current file', async () => {
  const root = copyOf('src');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const first = await symbolPhase(root, home, { threads: 2 });
  assert.is(first.written, 'full');
  let index = openIndex(root, home);
  // A full build: each parser thread wrote its own base segment, their paths apart.
  assert.equal([index.segments.length, index.manifest.baseSegments], [2, 2]);
  assert.is(index.manifest.files, index.paths.length, 'live file count over both bases');
  assertEquivalent(index, await parsedNow(root, home), 'after the first phase');
  index.close();
  const tsFiles = IndexReader.open(root, home)
    .files.filter((file) => file.language === 'typescript')
    .map((file) => file.path);
  const seen = new Set<string>();
  for (let round = 0; round < 7; round++) {
    // Each round changes one file, adds one and deletes one.
    writeFileSync(join(root, tsFiles[round]!), `export function changedFn${round}(): number { return search(${round}); }\n`);
    writeFileSync(join(root, `added-${round}.ts`), `export class AddedClass${round} { addedFn${round}(): void { changedFn${round}(); } }\n`);
    rmSync(join(root, tsFiles[tsFiles.length - 1 - round]!));
    await syncIndex(root, { home });
    const summary = await symbolPhase(root, home);
    assert.equal([summary.parsed, summary.deleted], [2, 1], `round ${round}: only what changed is parsed`);
    seen.add(summary.written);
    index = openIndex(root, home);
    assert.ok(index.segments.length <= 6, 'deltas are folded before they pile up');
    assert.is(index.manifest.files, index.paths.length, 'live file count');
    assert.is(
      index.manifest.symbols,
      index.paths.reduce((sum, path) => sum + index.symbolsIn(path)!.length, 0),
      'live symbol count',
    );
    assertEquivalent(index, await parsedNow(root, home), `round ${round} (${summary.written}, ${index.segments.length} segments)`);
    index.close();
  }
  assert.equal([...seen].sort(), ['delta', 'folded-deltas']);
  // A change to a large share of the files (half of them: a fixed count was a smaller share as
  // src/ grew) folds everything into one segment.
  for (const path of tsFiles.slice(10, 10 + Math.ceil(tsFiles.length / 2)))
    writeFileSync(join(root, path), `export const renamed_${path.replace(/\W/g, '_')} = 1;\n`);
  await syncIndex(root, { home });
  assert.is((await symbolPhase(root, home)).written, 'full');
  index = openIndex(root, home);
  assert.is(index.segments.length, 1);
  assertEquivalent(index, await parsedNow(root, home), 'after a full fold');
  index.close();
  const store = new IndexStore(root, home);
  assert.equal(
    readdirSync(store.dir).filter((name) => name.endsWith('.sxs')),
    [index.manifest.segments[0]!.name],
    'folded segments are removed',
  );
});

test('a phase with nothing to do writes nothing; --force parses every file again', async () => {
  const root = copyOf('src/jsonrpc');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const first = await symbolPhase(root, home);
  const store = new IndexStore(root, home);
  const listing = (): string[] =>
    readdirSync(store.dir)
      .filter((name) => name.startsWith('symbols'))
      .map((name) => `${name}@${statSync(join(store.dir, name)).mtimeMs}`)
      .sort();
  const before = listing();
  await syncIndex(root, { home });
  const again = await symbolPhase(root, home);
  assert.equal([again.written, again.parsed, again.reused, again.symbols], ['nothing', 0, first.files, first.symbols]);
  assert.equal(listing(), before, 'no symbol file written or touched');
  // Through the CLI: a sync that finds no change knows the symbols are current and does not even load the parser.
  // (The first notes which text index the symbols match.)
  assert.match((await runCli(['sync', root], '', { SEXTANT_HOME: home })).stdout, 'nothing to write');
  const noted = listing();
  const cli = await runCli(['sync', root], '', { SEXTANT_HOME: home });
  assert.is(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, `Symbols: ${first.symbols} in ${first.files} files, current`);
  assert.equal(listing(), noted, 'still nothing written');
  const forced = await symbolPhase(root, home, { force: true });
  assert.equal([forced.written, forced.parsed, forced.reused, forced.symbols], ['full', first.files, 0, first.symbols]);
  const segments = readdirSync(store.dir).filter((name) => name.endsWith('.sxs'));
  assert.equal(
    segments,
    [(JSON.parse(readFileSync(join(store.dir, SYMBOLS_MANIFEST), 'utf8')) as { segments: Array<{ name: string }> }).segments[0]!.name],
    'a forced rebuild leaves only its own segment',
  );
});

test('an interrupted symbol phase is journaled, and lookups keep answering from the previous symbols', async () => {
  const root = copyOf('src/index');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  await symbolPhase(root, home);
  writeFileSync(join(root, 'brand-new.ts'), 'export function brandNewFunction(): void {}\n');
  await syncIndex(root, { home });
  const controller = new AbortController();
  const phase = buildSymbols(root, IndexReader.open(root, home).files, {
    home,
    force: true,
    signal: controller.signal,
    onProgress: (done) => done > 0 && controller.abort(new Error('stopped by the test')),
  });
  try {
    await phase;
    assert.unreachable('the phase was aborted');
  } catch (error) {
    assert.match(String(error), 'stopped by the test');
  }
  const store = new IndexStore(root, home);
  assert.is(store.interruptedJob()?.mode, 'symbols');
  const index = openIndex(root, home);
  assert.ok(index.find('IndexReader').length > 0, 'the previous symbols answer');
  assert.equal(
    index.find('brandNewFunction', { limit: 1 }).filter((symbol) => symbol.name === 'brandNewFunction'),
    [],
    'nothing half-written',
  );
  index.close();
  const status = JSON.parse((await runCli(['status', root, '--json'], '', { SEXTANT_HOME: home })).stdout) as {
    interruptedJob: { mode: string } | null;
    symbols: { files: number } | null;
  };
  assert.is(status.interruptedJob?.mode, 'symbols');
  assert.ok(status.symbols!.files > 10);
});

test('symbols of another format are index_incompatible, a torn segment index_corrupt; search never fails for them', async () => {
  const root = copyOf('src/jsonrpc');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  await symbolPhase(root, home);
  const store = new IndexStore(root, home);
  const manifestPath = join(store.dir, SYMBOLS_MANIFEST);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { format: number; segments: Array<{ name: string }> };
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, format: 0 }));
  const project = new Project(root, { home });
  try {
    project.symbols();
    assert.unreachable('an old format is refused');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'index_incompatible');
    assert.match(String(error), 'sextant index --force');
  }
  const cli = await runCli(['symbols', 'Peer', root], '', { SEXTANT_HOME: home });
  assert.is(cli.code, 2, cli.stderr);
  assert.match(cli.stderr, 'sextant index --force');
  writeFileSync(manifestPath, JSON.stringify(manifest));
  truncateSync(join(store.dir, manifest.segments[0]!.name), 200);
  try {
    project.symbols();
    assert.unreachable('a torn segment is refused');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'index_corrupt');
  }
  assert.ok((await project.search.search({ pattern: 'Peer' })).matches.length > 0, 'search still works');
  await project.close();
  // A rebuild replaces them.
  assert.is((await runCli(['index', '--force', root], '', { SEXTANT_HOME: home })).code, 0);
  assert.is((await runCli(['symbols', 'Peer', root], '', { SEXTANT_HOME: home })).code, 0);
  // A segment of another layout (an older Sextant's) is incompatible, and a sync rebuilds it instead of calling it current.
  const segment = join(store.dir, (JSON.parse(readFileSync(manifestPath, 'utf8')) as typeof manifest).segments[0]!.name);
  const bytes = readFileSync(segment);
  bytes.writeUInt32LE(1, 8);
  writeFileSync(segment, bytes);
  const old = await runCli(['symbols', 'Peer', root], '', { SEXTANT_HOME: home });
  assert.is(old.code, 2);
  assert.match(old.stderr, 'written by format 1');
  assert.match(old.stderr, 'sextant index --force');
  const synced = await runCli(['sync', root], '', { SEXTANT_HOME: home });
  assert.match(synced.stdout, /parsed, 0 unchanged, 0 removed; written\)/);
  assert.is((await runCli(['symbols', 'Peer', root], '', { SEXTANT_HOME: home })).code, 0);
});

test('an index of the previous format (JSON symbols) is index_incompatible, with the command that rebuilds it', async () => {
  const root = copyOf('src/jsonrpc');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  await buildIndex(root, { home });
  const store = new IndexStore(root, home);
  const manifest = JSON.parse(readFileSync(store.manifestPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(store.manifestPath, JSON.stringify({ ...manifest, format: 3 }));
  writeFileSync(join(store.dir, 'symbols.json'), '{"files":[]}');
  const status = JSON.parse((await runCli(['status', root, '--json'], '', { SEXTANT_HOME: home })).stdout) as { error: { code: string; message: string } };
  assert.is(status.error.code, 'index_incompatible');
  assert.match(status.error.message, 'sextant index --force');
  const project = new Project(root, { home });
  try {
    project.requireIndex();
    assert.unreachable('the old index is refused');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'index_incompatible');
  } finally {
    await project.close();
  }
  assert.is((await runCli(['index', '--force', root], '', { SEXTANT_HOME: home })).code, 0);
  assert.equal(
    readdirSync(store.dir).filter((name) => name === 'symbols.json'),
    [],
    'the JSON store is cleared away',
  );
});

test.run();
