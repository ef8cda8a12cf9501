/**
 * One query over several projects in one thread (threads/project-search.ts): their files are read
 * in one order, the best possible next match first, until the page is certain across all of them.
 * The merged page must be exactly the one each project's whole ranking gives, every certain prefix
 * must be that project's own, and the projects together must read less than each read to its own page.
 * The projects that read until a pool fills (a name defined past the seeds) share one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ContentCache } from '../../../src/index/search/content-cache.js';
import { IndexReader, type KnownMatch, rankSearch, type SearchQuery } from '../../../src/index/search/index.js';
import { pathDepth } from '../../../src/index/search/path-signals.js';
import { OpenProjects } from '../../../src/index/search/threads/open-projects.js';
import { searchBatch, searchIndex } from '../../../src/index/search/threads/project-search.js';
import { unpack } from '../../../src/index/search/wire.js';
import { IndexStore } from '../../../src/index/store/store.js';
import { SymbolIndex } from '../../../src/index/symbols/symbol-index.js';
import { indexTree } from '../../helpers/indexed-tree.js';
import { closerFiles, projectTree } from '../../helpers/projects.js';

/** Projects that share words at different depths and in different kinds of file: sources, tests, docs, vendored code. */
function projectFiles(index: number): Record<string, string> {
  const files: Record<string, string> = {};
  const go = (i: number) => `package p\n\n// the reader returns the error\nfunc Read${i}(r Reader) error {\n\treturn r.Read()\n}\n`;
  const py = (i: number) => `# the reader\ndef read_${i}(reader):\n    return reader.read()\n`;
  const dirs = [['', 'io/'], ['deep/er/still/'], ['a/', 'a/b/c/'], ['vendor/x/', 'test/']][index]!;
  dirs.forEach((dir, d) => {
    for (let i = 0; i < 3 + index; i++) {
      files[`${dir}r${i}.go`] = go(index * 100 + d * 10 + i);
      files[`${dir}m${i}_test.py`] = py(index * 100 + d * 10 + i);
    }
    files[`${dir}docs/READ.md`] = '# Read\n\nThe reader returns the error; read it.\n';
  });
  if (index === 2) files['a/reader.go'] = 'package a\n\n// Reader reads.\ntype Reader interface {\n\tRead() error\n}\n';
  return files;
}

const WORDS = ['return', 'the', 'error', 'reader', 'Reader', 'read', 'returns', 'Read0'];

interface Item {
  project: number;
  key: string;
  id: string;
}

/** A ranked list's items, best first, with the rank key that orders them across projects. */
function itemsOf(project: number, ranked: Array<{ path: string; line: number; column: number; score: number }>): Item[] {
  return ranked.map(({ path, line, column, score }) => ({
    project,
    key: `${score.toFixed(6)} ${path.split('/').length} ${path.length}`,
    id: `${project}:${path}:${line}:${column} ${score}`,
  }));
}

/** The rank keys of the first `end` of several ranked lists merged by score, then depth, then length. */
function mergedKeys(lists: Item[][], end: number): string[] {
  const order = (a: string, b: string): number => {
    const [sa, da, la] = a.split(' ').map(Number) as [number, number, number];
    const [sb, db, lb] = b.split(' ').map(Number) as [number, number, number];
    return sb - sa || da - db || la - lb;
  };
  return lists
    .flat()
    .map((item) => item.key)
    .sort(order)
    .slice(0, end);
}

test('projects read together give each project’s own certain results and the whole ranking’s page, reading less', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const roots: string[] = [];
  try {
    for (let index = 0; index < 4; index++) roots.push(projectTree(projectFiles(index), `sextant-together-${index}-`));
    for (const root of roots) await indexTree(root, home);
    const opened = roots.map((root) => ({ reader: IndexReader.open(root, home, { lazy: true }), symbols: SymbolIndex.open(new IndexStore(root, home))! }));
    const projects = new OpenProjects(home, new ContentCache(), 256);
    let stoppedEarly = 0;
    let readLess = 0;
    try {
      for (const pattern of WORDS) {
        for (const caseSensitive of [false, true]) {
          const query: SearchQuery = { pattern, caseSensitive, limit: 1_000, sourceFirst: true };
          const whole = roots.map((root, project) => {
            const { reader, symbols } = opened[project]!;
            const ranked = rankSearch(root, symbols, query, reader.search(query).matches).ranked;
            return itemsOf(
              project,
              ranked.map((item) => ({ ...item.match, score: item.score })),
            );
          });
          for (const end of [1, 2, 5, 9, 20]) {
            const batch = roots.map((root) => ({ root, query, pageEnd: end }));
            const { reply } = searchBatch(projects, { id: 1, batch });
            const together = reply.results!.map((outcome, project) => {
              assert.ok('result' in outcome, `${pattern}: project ${project} failed`);
              const result = unpack(outcome.result);
              const items = itemsOf(
                project,
                result.matches.map((match, at) => ({ ...match, score: result.ranking!.scores[at]! })),
              );
              return { items, certain: result.ranking!.certain, truncated: result.truncated, read: result.matches.length };
            });
            const label = `${pattern} (${caseSensitive ? 'case' : 'any case'}), page of ${end}`;
            for (const [project, got] of together.entries()) {
              const own = whole[project]!.map((item) => item.id);
              if (got.certain === undefined)
                assert.equal(
                  got.items.map((item) => item.id),
                  own,
                  `${label}: project ${project} read whole`,
                );
              else {
                stoppedEarly++;
                assert.ok(got.truncated, `${label}: a project stopped early says it is truncated`);
                assert.equal(
                  got.items.slice(0, got.certain).map((item) => item.id),
                  own.slice(0, got.certain),
                  `${label}: project ${project}'s certain results`,
                );
              }
            }
            assert.equal(
              mergedKeys(
                together.map((got) => got.items),
                end,
              ),
              mergedKeys(whole, end),
              `${label}: the page`,
            );
            // Each project alone, read to its own page: together they read no more, and often less.
            const alone = roots.reduce(
              (sum, root) => sum + unpack(searchIndex(projects.get(root), { id: 1, root, query, rank: true, pageEnd: end })).matches.length,
              0,
            );
            const read = together.reduce((sum, got) => sum + got.read, 0);
            assert.ok(read <= alone, `${label}: together read ${read} matches, alone ${alone}`);
            if (read < alone) readLess++;
          }
        }
      }
    } finally {
      for (const { reader, symbols } of opened) {
        reader.close();
        symbols.close();
      }
      for (const root of roots) projects.forget(root);
    }
    assert.ok(stoppedEarly >= 40, `projects stopped early: ${stoppedEarly}`);
    assert.ok(readLess >= 20, `pages read with fewer matches together than alone: ${readLess}`);
  } finally {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test('a project that cannot be opened fails alone; the others of its batch answer', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const roots: string[] = [];
  try {
    for (let index = 0; index < 2; index++) roots.push(projectTree(projectFiles(index), `sextant-together-${index}-`));
    await indexTree(roots[0]!, home);
    const projects = new OpenProjects(home, new ContentCache(), 256);
    const query: SearchQuery = { pattern: 'reader', limit: 1_000, sourceFirst: true };
    const { reply } = searchBatch(projects, { id: 7, batch: roots.map((root) => ({ root, query, pageEnd: 5 })) });
    const [indexed, missing] = reply.results!;
    assert.ok(indexed && 'result' in indexed && unpack(indexed.result).matches.length >= 5, 'the indexed project answers its page');
    assert.ok(missing && 'error' in missing);
    assert.is(missing.error.code, 'SEXTANT_ERR_NOT_INDEXED');
    for (const root of roots) projects.forget(root);
  } finally {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

/** Each project's answer in a batch: its text matches (the seeds left out), how its pool ended it, and its ranked matches. */
function pooledOf(
  reply: ReturnType<typeof searchBatch>['reply'],
): Array<{ text: number; pooled: string | undefined; certain: number | undefined; ranked: string[] }> {
  return reply.results!.map((outcome, project) => {
    assert.ok('result' in outcome, `project ${project} failed`);
    const { matches, ranking } = unpack(outcome.result);
    return {
      text: matches.length - ranking!.seeds,
      pooled: ranking!.pooled,
      certain: ranking!.certain,
      ranked: matches.map((match) => `${match.path}:${match.line}`),
    };
  });
}

/** A project's ranked result as a match known from elsewhere, counted toward a batch's page. */
function knownOf(root: string, result: ReturnType<typeof unpack>): KnownMatch[] {
  return result.matches.map((match, at) => ({
    root,
    path: match.path,
    line: match.line,
    key: { score: result.ranking!.scores[at]!, depth: pathDepth(match.path), length: match.path.length },
  }));
}

test('projects that define the name past their seeds share one pool of matches; the others draw on none', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const roots: string[] = [];
  try {
    // Three projects of 600 matches of close (any case) each, 60 definitions apiece; a fourth with 5, all of them seeds.
    for (let index = 0; index < 3; index++) roots.push(projectTree(closerFiles(60, 8), `sextant-pool-${index}-`));
    roots.push(projectTree(closerFiles(5, 8), 'sextant-pool-few-'));
    for (const root of roots) await indexTree(root, home);
    const query: SearchQuery = { pattern: 'close', limit: 1_000, sourceFirst: true };
    // The caller finds the projects that share the pool by their definitions, and lists them first.
    const batch = roots.map((root, at) => ({ root, query, pageEnd: 10, ...(at < 3 && { sharesPool: true as const }) }));
    const crowded = [0, 1, 2];
    const sum = (counts: Array<{ text: number }>, at: number[]): number => at.reduce((total, project) => total + counts[project]!.text, 0);

    const projects = new OpenProjects(home, new ContentCache(), 256);
    const alone = roots.map((root) => unpack(searchIndex(projects.get(root), { id: 1, root, query, rank: true, pageEnd: 10 })));
    for (const project of crowded) {
      assert.is(alone[project]!.ranking!.pooled, 'own', 'read alone, a project fills a pool of its own');
      // Every match but those on the seeds' lines (one each).
      assert.is(alone[project]!.matches.length - alone[project]!.ranking!.seeds, 600 - 50);
    }
    assert.is(alone[3]!.ranking!.pooled, undefined, 'every definition among the seeds: no pool to fill');

    const together = pooledOf(searchBatch(projects, { id: 2, batch }).reply);
    // The pool counts every match a project reads, those on its seeds' lines too (at most 50 of them each).
    assert.ok(sum(together, crowded) <= 1_000 && sum(together, crowded) >= 1_000 - 3 * 50, `text matches read: ${sum(together, crowded)}`);
    assert.ok(
      together.slice(0, 3).some((one) => one.pooled === 'shared'),
      'at least one project was stopped by the shared pool',
    );
    assert.ok(together.slice(0, 3).every((one) => one.pooled === 'own' || one.pooled === 'shared'));
    assert.is(together[3]!.pooled, undefined, 'the project with every definition seeded reads until its page is certain, drawing on no pool');
    // The last one answered from elsewhere (kept, say: its matches known): those that share the pool read exactly as before.
    const sharing = pooledOf(searchBatch(projects, { id: 3, batch: batch.slice(0, 3), known: knownOf(roots[3]!, alone[3]!) }).reply);
    assert.equal(sharing, together.slice(0, 3), 'the shared pool does not depend on the projects that take nothing from it');

    // A page at the pool's end reads the pool whole, however many matches known from elsewhere outrank everything here.
    const outranking = Array.from({ length: 1_000 }, (_, line) => ({ root: '/elsewhere', path: 'a.go', line, key: { score: 1e9, depth: 1, length: 4 } }));
    const whole = batch.map((item) => ({ ...item, pageEnd: 1_000 }));
    const deep = pooledOf(searchBatch(projects, { id: 6, batch: whole, known: outranking }).reply);
    assert.equal(deep.slice(0, 3), pooledOf(searchBatch(projects, { id: 7, batch: whole }).reply).slice(0, 3));
    assert.ok(sum(deep, crowded) >= 1_000 - 3 * 50 && deep.slice(0, 3).every((one) => one.certain === undefined), 'the pool read whole, nothing said certain');
    // The project that shares nothing reads until the page is certain: at once, with what is known.
    assert.equal([deep[3]!.text, deep[3]!.certain], [0, 5], 'its five definitions, and not a file read');

    // Not told to share: each fills a pool of its own.
    const apart = pooledOf(searchBatch(projects, { id: 4, batch: batch.map(({ root, pageEnd }) => ({ root, query, pageEnd })) }).reply);
    assert.is(sum(apart, crowded), 3 * (600 - 50));
    assert.ok(apart.slice(0, 3).every((one) => one.pooled === 'own'));

    // Open files for one project at a time: the projects that share the pool are read in one group all the same.
    const one = new OpenProjects(home, new ContentCache(), 1);
    assert.equal(pooledOf(searchBatch(one, { id: 5, batch }).reply).slice(0, 3), together.slice(0, 3));
    for (const root of roots) {
      projects.forget(root);
      one.forget(root);
    }
  } finally {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
