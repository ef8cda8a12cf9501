import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { discover } from '../../../src/index/files/walk.js';
import { buildIndex } from '../../../src/index/build/indexer.js';
import { BadPatternError, planRegex } from '../../../src/index/search/query-plan.js';
import { compileMatcher } from '../../../src/index/search/matcher.js';
import { IndexReader, NotIndexedError, type SearchQuery } from '../../../src/index/search/reader.js';
import { ROOT } from '../../helpers/process.js';
import { projectTree } from '../../helpers/projects.js';
import { eventually } from '../../helpers/wait.js';

const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));

/** The reference: every discovered text file, every line, the pattern applied directly. */
function bruteForce(root: string, query: SearchQuery): string[] {
  const flags = `${query.caseSensitive ? '' : 'i'}u`;
  const source = query.regex ? query.pattern : query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch {
    regex = new RegExp(source, flags.replace('u', ''));
  }
  const found: string[] = [];
  for (const file of discover(root).files) {
    const bytes = readFileSync(join(root, file.path));
    if (bytes.subarray(0, 8192).includes(0)) continue;
    const text = bytes.toString('utf8');
    const lines = text.split('\n');
    if (text.endsWith('\n') || text === '') lines.pop(); // a final newline ends the last line (as rg counts)
    lines.forEach((raw, i) => {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const match = regex.exec(line);
      if (match) found.push(`${file.path}:${i + 1}:${match.index + 1}`);
    });
  }
  return found;
}

const QUERIES: SearchQuery[] = [
  { pattern: 'function' },
  { pattern: 'addKeyword', caseSensitive: true },
  { pattern: 'SCHEMA' },
  { pattern: 'Schema', caseSensitive: true },
  { pattern: 'return null' },
  { pattern: '=>' },
  { pattern: 'ab' },
  { pattern: '\\d+\\.\\d+', regex: true },
  { pattern: '^\\s*$', regex: true },
  { pattern: '^export (const|function|class) ', regex: true },
  { pattern: '(validate|compile)Schema', regex: true },
  { pattern: '[Ss]chema[A-Z]\\w+', regex: true, caseSensitive: true },
  { pattern: 'colou?r', regex: true },
  { pattern: 'this\\.(opts|_opts)\\.', regex: true },
  { pattern: 'a.*b.*c', regex: true },
  { pattern: '\\bthrow new \\w*Error\\b', regex: true, caseSensitive: true },
  { pattern: '(?:foo|bar)+baz', regex: true },
  { pattern: '\\p{Lu}{3,}', regex: true, caseSensitive: true },
  { pattern: 'ü|é|ß', regex: true },
  { pattern: '[^\\x00-\\x7f]', regex: true },
  { pattern: 'errors?Text', regex: true },
  { pattern: '(a|b)(c|d)(e|f)', regex: true },
  // Runs of small classes narrow by their windows' spellings:
  { pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}', regex: true, caseSensitive: true },
  { pattern: '\\d\\d:\\d\\d', regex: true },
  { pattern: '0x[0-9a-f]{2,4}', regex: true },
  { pattern: '[A-Z]{2}_[a-z]', regex: true, caseSensitive: true },
  { pattern: '[a-c][e-g][s-u]', regex: true },
  { pattern: '^\\s*[ie][mx]port\\b', regex: true, caseSensitive: true },
  // Whole-file seeking must agree with line-by-line matching:
  { pattern: ';\\s*\\n?\\s*}', regex: true },
  { pattern: '\\s+return', regex: true },
  { pattern: '(?<=this\\.)opts', regex: true },
  { pattern: 'schema(?!Env)', regex: true, caseSensitive: true },
  { pattern: '\\s*$', regex: true },
  { pattern: 'RETURN', regex: false },
];

for (const tree of ['node_modules/ajv', 'node_modules/yargs', 'src']) {
  test(`search over ${tree} equals a brute-force scan for ${QUERIES.length} queries`, async () => {
    const root = join(ROOT, tree);
    await buildIndex(root, { home });
    // Both reading paths: through the content cache, and straight from disk (large scans).
    for (const cacheBypassCandidates of [Infinity, 0]) {
      const reader = IndexReader.open(realpathSync(root), home, { cacheBypassCandidates });
      for (const query of QUERIES) {
        const result = reader.search({ ...query, limit: 1_000_000 });
        const got = result.matches.map((m) => `${m.path}:${m.line}:${m.column}`);
        assert.equal(got, bruteForce(root, query), JSON.stringify(query));
      }
    }
  });
}

test('a scan decodes only the lines that hold a literal: the same matches as decoding whole files, odd bytes and all', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-bytes-')));
  mkdirSync(join(root, 'src'));
  const files: Record<string, Buffer> = {
    'src/crlf.ts': Buffer.from('const needle = 1;\r\nlet other = needle + needle;\r\n\r\nneedle'),
    'src/bom.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('needle at the start\nnot here\n')]),
    // An invalid lead byte right before the literal, a lone continuation byte, a truncated sequence at a line's end.
    'src/invalid.ts': Buffer.concat([
      Buffer.from('x'),
      Buffer.from([0xc3]),
      Buffer.from('needle\n'),
      Buffer.from([0x80]),
      Buffer.from(' needle ünïcödé needle\nend '),
      Buffer.from([0xe2, 0x82]),
      Buffer.from('\nünïcödé\n'),
    ]),
    'src/plain.ts': Buffer.from(Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? `line ${i} needle_${i} throw new TypeError()` : `line ${i}`)).join('\n')),
  };
  for (const [path, bytes] of Object.entries(files)) writeFileSync(join(root, path), bytes);
  await buildIndex(root, { home });
  const queries: SearchQuery[] = [
    { pattern: 'needle', caseSensitive: true },
    { pattern: 'ünïcödé', caseSensitive: true },
    { pattern: 'needle_\\d+ throw', regex: true, caseSensitive: true },
    { pattern: '^needle', regex: true, caseSensitive: true },
    { pattern: 'throw new \\w+Error\\(\\)$', regex: true, caseSensitive: true },
  ];
  for (const query of queries) {
    const expected = bruteForce(root, query);
    assert.ok(expected.length > 0, JSON.stringify(query));
    for (const cacheBypassCandidates of [0, Infinity]) {
      const reader = IndexReader.open(root, home, { cacheBypassCandidates });
      const result = reader.search({ ...query, limit: 1_000_000 });
      assert.equal(
        result.matches.map((m) => `${m.path}:${m.line}:${m.column}`),
        expected,
        `${JSON.stringify(query)}, bypass ${cacheBypassCandidates}`,
      );
      // The limit stops both paths at the same match, and says so.
      const limited = reader.search({ ...query, limit: 2 });
      assert.equal(
        limited.matches.map((m) => `${m.path}:${m.line}:${m.column}`),
        expected.slice(0, 2),
      );
      assert.is(limited.truncated, expected.length > 2);
      reader.close();
    }
  }
  const scanned = IndexReader.open(root, home, { cacheBypassCandidates: 0 }).search({ pattern: 'needle', caseSensitive: true, limit: 100 });
  const cached = IndexReader.open(root, home, { cacheBypassCandidates: Infinity }).search({ pattern: 'needle', caseSensitive: true, limit: 100 });
  assert.equal(scanned.matches, cached.matches, 'texts, lengths and whole-word flags agree too');
});

test('selective queries touch few candidate files', async () => {
  const root = realpathSync(join(ROOT, 'node_modules/ajv'));
  await buildIndex(root, { home });
  const reader = IndexReader.open(root, home);
  const result = reader.search({ pattern: 'discriminator_1', caseSensitive: true, limit: 1000 });
  assert.ok(result.matches.length > 0);
  const matchedFiles = new Set(result.matches.map((m) => m.path)).size;
  assert.ok(result.stats.candidates >= matchedFiles);
  assert.ok(result.stats.candidates < result.stats.files / 5, `${result.stats.candidates} of ${result.stats.files}`);
  // A regex with no usable literal falls back to every file, and is still right.
  const scan = reader.search({ pattern: '\\w+', regex: true, limit: 1 });
  assert.is(scan.stats.candidates, scan.stats.files);
});

test('limit, truncation, context lines, path glob and language filters', async () => {
  const root = realpathSync(join(ROOT, 'src'));
  await buildIndex(root, { home });
  const reader = IndexReader.open(root, home);
  const limited = reader.search({ pattern: 'import', limit: 3 });
  assert.is(limited.matches.length, 3);
  assert.ok(limited.truncated);
  const withContext = reader.search({ pattern: 'export const DEFAULT_PAGE_SIZE', caseSensitive: true, context: 1 });
  assert.is(withContext.matches.length, 1);
  assert.is(withContext.matches[0]!.path, 'mcp/pagination.ts');
  assert.is(withContext.matches[0]!.before!.length, 1);
  assert.is(withContext.matches[0]!.after!.length, 1);
  const onlyJsonrpc = reader.search({ pattern: 'class', path: 'jsonrpc/*.ts', limit: 1000 });
  assert.ok(onlyJsonrpc.matches.length > 0);
  assert.ok(onlyJsonrpc.matches.every((m) => m.path.startsWith('jsonrpc/')));
  const noTs = reader.search({ pattern: 'class', language: 'python' });
  assert.equal(noTs.matches, []);
});

test('a run of small classes is narrowed by the spellings of its windows of three', () => {
  const { query } = planRegex('[0-9]{4}-[0-9]{2}-[0-9]{2}', false);
  assert.is(query.op, 'and');
  const ors = (query as { children: Array<{ op: string; children?: unknown[] }> }).children.filter((child) => child.op === 'or');
  // DD-, D-D and -DD (DDD has 1,000 spellings: left out); each window once, however often it recurs.
  assert.equal(ors.map((child) => child.children!.length).sort(), [100, 100, 100]);
  assert.is(planRegex('\\w{3}', false).query.op, 'all', 'a class too large to spell out narrows nothing');
  assert.is(planRegex('[0-9]x?[0-9]', false).query.op, 'all', 'an optional element breaks the run');
  // `x{2,}y`: its last two x stand right before the y, so every match holds `xxy`.
  const open = planRegex('x{2,}y', false).query;
  assert.is(open.op, 'trigram', JSON.stringify(open));
  // `ab{3,5}c`: abbb at its start, bbbc at its end.
  const trigramsOf = (query: { op: string; trigram?: number; children?: unknown[] }): number[] =>
    query.op === 'trigram' ? [query.trigram!] : query.op === 'and' ? (query.children as Array<typeof query>).flatMap(trigramsOf) : [];
  const expected = new Set([...trigramsOf(planRegex('abbb', false).query), ...trigramsOf(planRegex('bbbc', false).query)]);
  assert.equal(new Set(trigramsOf(planRegex('ab{3,5}c', false).query)), expected);
});

test('a literal with non-ASCII letters, without case: narrowed by its spellings, and every spelling found', async () => {
  const root = projectTree({
    'a.txt': 'a NAÏVE plan\nnaive, in ASCII\n',
    'b.txt': 'quite naïve\nÉcole normale\n',
    'c.txt': 'Naïve École\nan école\n',
    'd.txt': 'nothing of the sort\n',
  });
  await buildIndex(root, { home });
  const reader = IndexReader.open(root, home);
  for (const pattern of ['naïve', 'NAÏVE', 'école']) {
    const query: SearchQuery = { pattern, limit: 1000 };
    assert.equal(
      reader.search(query).matches.map((m) => `${m.path}:${m.line}:${m.column}`),
      bruteForce(root, query),
      pattern,
    );
  }
  assert.is(compileMatcher({ pattern: 'naïve' }).plan.op, 'or', 'narrowed: naïve or NAÏVE');
  // A letter whose other case is two letters (ß, SS) is not spelled out: its part narrows nothing, as before.
  assert.is(compileMatcher({ pattern: 'ßß' }).plan.op, 'all');
  reader.close();
  rmSync(root, { recursive: true, force: true });
});

test('a bad regex is a BadPatternError naming the problem; an unindexed folder is NotIndexedError', async () => {
  try {
    planRegex('a(b', false);
    assert.unreachable('should not parse');
  } catch (error) {
    assert.instance(error, BadPatternError);
    assert.is((error as BadPatternError).code, 'SEXTANT_ERR_BAD_PATTERN');
    assert.match((error as Error).message, 'Unterminated group');
  }
  try {
    IndexReader.open(realpathSync(mkdtempSync(join(tmpdir(), 'sextant-empty-'))), home);
    assert.unreachable('nothing indexed there');
  } catch (error) {
    assert.instance(error, NotIndexedError);
    assert.match((error as Error).message, 'sextant index');
  }
});

test('a search split across three workers equals one reader, limits included; a sync is seen without a restart', async () => {
  const { SearchService } = await import('../../../src/index/search/threads/service.js');
  const { syncIndex } = await import('../../../src/index/build/sync.js');
  const { cpSync, writeFileSync } = await import('node:fs');
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-shards-')));
  cpSync(join(ROOT, 'node_modules/ajv/lib'), root, { recursive: true });
  await buildIndex(root, { home });
  const reader = IndexReader.open(root, home);
  const service = new SearchService(root, { home, workers: 3 });
  try {
    for (const query of QUERIES.slice(0, 12)) {
      const whole = await service.search({ ...query, limit: 1_000_000 });
      assert.equal(
        whole.matches.map((m) => `${m.path}:${m.line}:${m.column}`),
        bruteForce(root, query),
        JSON.stringify(query),
      );
      for (const limit of [1, 7, 50]) {
        const split = await service.search({ ...query, limit });
        const single = reader.search({ ...query, limit });
        assert.equal(split.matches, single.matches, `${JSON.stringify(query)} limit ${limit}`);
        assert.is(split.truncated, single.truncated);
        assert.is(split.stats.candidates, single.stats.candidates);
      }
    }
    writeFileSync(join(root, 'added-later.ts'), 'export const wombat_marker = 1;\n');
    assert.equal((await service.search({ pattern: 'wombat_marker' })).matches, []);
    await syncIndex(root, { home });
    assert.equal(
      (await service.search({ pattern: 'wombat_marker' })).matches.map((m) => m.path),
      ['added-later.ts'],
    );
  } finally {
    await service.close();
  }
});

test('search workers read the segments lazily: a sync adds its delta, a merge removes merged files they held open, results stay exact', async () => {
  const { SearchService } = await import('../../../src/index/search/threads/service.js');
  const { syncIndex } = await import('../../../src/index/build/sync.js');
  const { mergeDeltas } = await import('../../../src/index/build/merge.js');
  const { IndexStore } = await import('../../../src/index/store/store.js');
  const { cpSync, existsSync, writeFileSync } = await import('node:fs');
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-lazy-')));
  cpSync(join(ROOT, 'src/index'), root, { recursive: true });
  await buildIndex(root, { home });
  const store = new IndexStore(root, home);
  const first = store.readManifest()!.segments;
  const service = new SearchService(root, { home, workers: 2 });
  try {
    assert.is((await service.search({ pattern: 'function searchIndex' })).matches.length, 1);
    for (let round = 0; round < 3; round++) {
      writeFileSync(join(root, `delta-${round}.ts`), `export const lazy_marker_${round} = ${round};\n`);
      await syncIndex(root, { home });
      assert.ok(store.readManifest()!.segments.length > first.length + round, 'the sync wrote a delta');
      assert.equal(
        (await service.search({ pattern: `lazy_marker_${round}` })).matches.map((m) => m.path),
        [`delta-${round}.ts`],
      );
    }
    const before = store.readManifest()!.segments;
    mergeDeltas(root, { home });
    const merged = store.readManifest()!.segments;
    assert.ok(
      before.some((name) => !merged.includes(name) && !existsSync(store.segmentPath(name))),
      'a delta the workers had open is gone from disk',
    );
    for (let round = 0; round < 3; round++)
      assert.equal(
        (await service.search({ pattern: `lazy_marker_${round}` })).matches.map((m) => m.path),
        [`delta-${round}.ts`],
      );
    for (const query of [{ pattern: 'liveReader' }, { pattern: 'segment[A-Z]\\w+', regex: true }] as SearchQuery[]) {
      assert.equal(
        (await service.search({ ...query, limit: 1_000_000 })).matches.map((m) => `${m.path}:${m.line}:${m.column}`),
        bruteForce(root, query),
        query.pattern,
      );
    }
  } finally {
    await service.close();
  }
});

test('a parallel build shares the files out by bytes, in order: every file once, each share about as heavy', async () => {
  const { balancedSlices } = await import('../../../src/index/build/text-extract.js');
  const files = Array.from({ length: 500 }, (_, i) => ({ path: `f${String(i).padStart(3, '0')}`, size: i < 250 ? 1_000 : 9_000 }));
  for (const parts of [1, 2, 3, 4, 7]) {
    const slices = balancedSlices(files, parts);
    assert.is(slices.length, parts);
    assert.equal(slices.flat(), files, 'contiguous, in order, every file once');
    const weights = slices.map((slice) => slice.reduce((sum, file) => sum + file.size + 2048, 0));
    const ideal = weights.reduce((a, b) => a + b, 0) / parts;
    for (const weight of weights) assert.ok(Math.abs(weight - ideal) <= 11_048, `${weights.join(', ')} around ${ideal}`);
  }
  // By count the halves would be 250 light and 250 heavy files; by weight the first share is longer.
  assert.ok(balancedSlices(files, 2)[0]!.length > 300);
  assert.equal(
    balancedSlices(files.slice(0, 2), 4).map((slice) => slice.length),
    [1, 1],
    'never an empty share',
  );
  assert.equal(balancedSlices([], 2), []);
});

test('a parallel build writes a segment per worker every partitionBytes of text (bounded memory); results stay exact, sync and merge still work', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { syncIndex } = await import('../../../src/index/build/sync.js');
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-partitions-')));
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa'];
  for (let i = 0; i < 1_200; i++) {
    const dir = join(root, `d${i % 12}`);
    mkdirSync(dir, { recursive: true });
    const lines = Array.from({ length: 20 }, (_, l) => `${words[(i + l) % 8]}_${(i * 7 + l) % 97} = ${words[(i * l) % 8]}(${i}, ${l});`);
    if (i % 50 === 0) lines.push('needle_in_partition();');
    writeFileSync(join(dir, `f${i}.ts`), `${lines.join('\n')}\n`);
  }
  const summary = await buildIndex(root, { home, threads: 2, partitionBytes: 32 * 1024 });
  assert.is(summary.files, 1_200);
  const reader = IndexReader.open(root, home);
  assert.ok(reader.manifest.segments.length > 4, `${reader.manifest.segments.length} segments`);
  assert.is(reader.manifest.baseSegments, reader.manifest.segments.length);
  assert.is(reader.files.length, 1_200);
  for (const query of [{ pattern: 'needle_in_partition' }, { pattern: 'kappa_1\\d', regex: true }, { pattern: 'Gamma(1' }] as SearchQuery[]) {
    assert.equal(
      reader.search({ ...query, limit: 100_000 }).matches.map((m) => `${m.path}:${m.line}:${m.column}`),
      bruteForce(root, query),
      JSON.stringify(query),
    );
  }
  writeFileSync(join(root, 'd0/f0.ts'), 'needle_in_partition changed\n');
  await syncIndex(root, { home });
  assert.equal(
    IndexReader.open(root, home)
      .search({ pattern: 'needle_in_partition', limit: 1000 })
      .matches.map((m) => `${m.path}:${m.line}`),
    bruteForce(root, { pattern: 'needle_in_partition' }).map((hit) => hit.split(':').slice(0, 2).join(':')),
  );
});

test('large files are indexed in blocks: only candidate blocks are searched, and results still equal a brute-force scan', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { DEFAULT_BLOCK_BYTES } = await import('../../../src/index/text/trigrams.js');
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-blocks-')));
  mkdirSync(join(root, 'big'));
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda', 'sigma'];
  for (let f = 0; f < 6; f++) {
    const lines: string[] = [];
    for (let l = 0; l < 6_000; l++) {
      let line = `${words[(f * 7 + l) % 10]}_${l % 97} = ${words[(l * 3) % 10]}(${f}, ${l}); // ${words[(l + f) % 10]}`;
      if (l % 1_000 === 0) line += ' héllo wörld 漢字'; // non-ASCII: character and byte offsets differ
      if (l === 17 + f * 900) line = `const needle_block_${f} = 'rare';`;
      lines.push(line);
    }
    lines.push('final_line_marker');
    writeFileSync(join(root, `big/file${f}.ts`), lines.join(f === 3 ? '\r\n' : '\n') + (f === 5 ? '' : '\n'));
  }
  writeFileSync(join(root, 'small.ts'), 'const needle_block_small = 1;\n');
  await buildIndex(root, { home });
  const reader = IndexReader.open(root, home);
  const big = reader.files.find((file) => file.path === 'big/file0.ts')!;
  assert.ok(big.size > 4 * DEFAULT_BLOCK_BYTES && (big.blocks?.length ?? 0) >= 4, 'indexed in blocks');
  const rare = reader.candidates(compileMatcher({ pattern: 'needle_block_0', caseSensitive: true }).plan);
  assert.equal(
    rare.map((candidate) => [candidate.file.path, candidate.blocks?.length]),
    [['big/file0.ts', 1]],
    'one block of one file',
  );
  const queries: SearchQuery[] = [
    ...QUERIES,
    { pattern: 'needle_block', caseSensitive: true },
    { pattern: 'NEEDLE_BLOCK_3' },
    { pattern: 'final_line_marker' },
    { pattern: 'héllo wörld', caseSensitive: true },
    { pattern: '漢字$', regex: true },
    { pattern: 'needle_block_\\d', regex: true, caseSensitive: true },
    { pattern: '^kappa_1[0-9] = ', regex: true, caseSensitive: true },
    { pattern: 'lambda_96 = lambda', caseSensitive: true },
  ];
  for (const cacheBypassCandidates of [Infinity, 0]) {
    const fresh = IndexReader.open(root, home, { cacheBypassCandidates });
    for (const query of queries) {
      const result = fresh.search({ ...query, limit: 1_000_000 });
      assert.equal(
        result.matches.map((m) => `${m.path}:${m.line}:${m.column}`),
        bruteForce(root, query),
        JSON.stringify(query),
      );
    }
  }
});

test('a match in a file that says it is generated, or on a minified line, carries the signal, whichever way the file is read', async () => {
  const root = projectTree({
    'gen/types.go': '// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage gen\n\nfunc Marshal() {}\n',
    'gen/meta.js': '/* @generated */\nexport function Marshal() {}\n',
    'src/late.go': 'package src\n\n' + 'var x = 1\n'.repeat(200) + '// DO NOT EDIT, said too late to count\nfunc Marshal() {}\n',
    'src/plain.go': 'package src\n\nfunc Marshal() {}\n',
    'web/app.js': `var a=1;${'x=Marshal(a);'.repeat(100)}\nfunction Marshal(v) { return v; }\n`,
  });
  await buildIndex(root, { home });
  // Through the content cache, and straight from disk as bytes (a case-sensitive literal) or as text.
  for (const cacheBypassCandidates of [Infinity, 0]) {
    const reader = IndexReader.open(root, home, { cacheBypassCandidates });
    for (const caseSensitive of [true, false]) {
      const flagged = reader.search({ pattern: 'Marshal', caseSensitive, limit: 100 }).matches.map((m) => `${m.path}:${m.generated === true}`);
      // A minified line of a script is flagged as well; the readable line of the same file is not.
      assert.equal(
        flagged,
        ['gen/meta.js:true', 'gen/types.go:true', 'src/late.go:false', 'src/plain.go:false', 'web/app.js:true', 'web/app.js:false'],
        `bypass ${cacheBypassCandidates}, case-sensitive ${caseSensitive}`,
      );
    }
    reader.close();
  }
});

test('idle search workers are let go, and the next search starts new ones', async () => {
  const { SearchService } = await import('../../../src/index/search/threads/service.js');
  const root = realpathSync(join(ROOT, 'src'));
  await buildIndex(root, { home });
  const service = new SearchService(root, { home, workers: 2, idleMs: 100 });
  try {
    assert.ok((await service.search({ pattern: 'class' })).matches.length > 0);
    assert.is(service.liveWorkers, 2);
    await eventually(() => service.liveWorkers === 0, 'the workers are released when idle');
    assert.ok((await service.search({ pattern: 'class' })).matches.length > 0, 'and back for the next search');
    assert.is(service.liveWorkers, 2);
  } finally {
    await service.close();
  }
  assert.is(service.liveWorkers, 0);
});

test.run();
