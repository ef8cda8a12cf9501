/**
 * A literal's first results, read only as far as they need (first-page/early-page.ts): whatever a search
 * stops early with must be exactly the first results of the whole search's ranking, for every
 * page size, in every language, and it must say how many of them are certain.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchFirstResults } from '../../../src/index/search/first-page/early-page.js';
import { firstPagePlan, rankSearch, type Ranked, type SearchQuery, serves } from '../../../src/index/search/index.js';
import { withIndexedTree } from '../../helpers/indexed-tree.js';

/** Common words and names at every depth, in source, tests, docs and vendored code, in four languages. */
function wordyTree(): Record<string, string> {
  const files: Record<string, string> = {};
  const go = (pkg: string, i: number) =>
    `package ${pkg}\n\n// Copyright the authors; the error is returned.\nfunc Read${i}(r Reader) error {\n\tif r == nil {\n\t\treturn nil\n\t}\n\treturn r.Read()\n}\n`;
  const py = (i: number) => `# the reader\ndef read_${i}(reader):\n    return reader.read()\n\n\nclass Reader${i}:\n    def read(self):\n        return None\n`;
  const ts = (i: number) => `// the Reader\nexport function read${i}(reader: Reader): string {\n  return reader.read();\n}\n`;
  const c = (i: number) =>
    `/* the reader */\nstatic struct reader_ops *\nreader(int fd)\n{\n\treturn read_${i}(fd);\n}\n\nint read_${i}(int fd) { return fd; }\n`;
  const dirs = ['', 'io/', 'io/bufio/', 'net/http/internal/', 'x/'];
  dirs.forEach((dir, d) => {
    for (let i = 0; i < 4; i++) {
      files[`${dir}r${i}.go`] = go('p', d * 10 + i);
      files[`${dir}py/m${i}.py`] = py(d * 10 + i);
      files[`${dir}ts/m${i}.ts`] = ts(d * 10 + i);
      files[`${dir}c/m${i}.c`] = c(d * 10 + i);
    }
    files[`${dir}r_test.go`] = 'package p\n\nfunc TestRead(t *testing.T) {\n\treturn\n}\n';
    files[`${dir}docs/READ.md`] = '# Read\n\nThe reader returns the error; read it.\n';
    files[`vendor/${dir}dep.go`] = go('dep', 90 + d);
  });
  files['io/reader.go'] = 'package io\n\n// Reader reads.\ntype Reader interface {\n\tRead() error\n}\n';
  return files;
}

const WORDS = ['return', 'the', 'error', 'reader', 'Reader', 'read', 'nil', 'copyright', 'fd', 'returned'];

function ids(ranked: Ranked[]): string[] {
  return ranked.map((item) => `${item.match.path}:${item.match.line}:${item.match.column} ${item.score}`);
}

test('a page a search stopped early for is the whole ranking’s first page, for every size, word and case', async () => {
  await withIndexedTree(wordyTree(), ({ root, reader, symbols }) => {
    let stopped = 0;
    let readLess = 0;
    for (const pattern of WORDS) {
      for (const caseSensitive of [false, true]) {
        const query: SearchQuery = { pattern, caseSensitive, limit: 1_000, sourceFirst: true };
        const whole = reader.search(query);
        assert.not.ok(whole.truncated, 'the tree is smaller than the pool');
        const expected = ids(rankSearch(root, symbols, query, whole.matches).ranked);
        for (const end of [1, 2, 3, 5, 8, 20, 60]) {
          const first = searchFirstResults(reader, root, symbols, query, end);
          const got = ids(first.ranked);
          if (first.certain === undefined) {
            assert.equal(got, expected, `${pattern} (${caseSensitive}) read to its end: the whole ranking`);
            continue;
          }
          stopped++;
          if (first.result.matches.length < whole.matches.length) readLess++;
          assert.ok(first.certain >= Math.min(end, expected.length), `${pattern}: ${first.certain} certain, ${end} asked`);
          assert.ok(first.result.truncated, 'a search stopped early says it is truncated');
          assert.equal(got.slice(0, first.certain), expected.slice(0, first.certain), `${pattern} (${caseSensitive}), first ${end}`);
        }
      }
    }
    assert.ok(stopped >= 40, `pages stopped early: ${stopped}`);
    assert.ok(readLess >= 40, `pages that read fewer matches than the whole search: ${readLess}`);
    // No symbols (not indexed yet): the ceiling holds all the same.
    const query: SearchQuery = { pattern: 'return', limit: 1_000, sourceFirst: true };
    const bare = searchFirstResults(reader, root, undefined, query, 5);
    assert.ok(bare.certain! >= 5);
    assert.equal(ids(bare.ranked).slice(0, 5), ids(rankSearch(root, undefined, query, reader.search(query).matches).ranked).slice(0, 5));
  });
});

test('a literal nowhere on a line as a whole identifier does not define a name there (the name on the line below)', async () => {
  await withIndexedTree({ 'c/m.c': '/* x */\nstatic struct reader_ops *\nreader(int fd)\n{\n\treturn fd;\n}\n' }, ({ root, reader, symbols }) => {
    const query: SearchQuery = { pattern: 'reader', limit: 1_000, sourceFirst: true };
    const { ranked } = rankSearch(root, symbols, query, reader.search(query).matches);
    const shown = ranked.map((item) => [item.match.line, item.describe().definition === true]);
    // The definition is the name's line; `reader_ops` on the line above is a use of another word.
    assert.equal(shown, [
      [3, true],
      [2, false],
    ]);
  });
});

test('a name that is not one identifier (Ruby’s `save!`, a shell’s `my-func`) still defines, and no page of it stops early', async () => {
  const files: Record<string, string> = {
    'app/model.rb': 'class Model\n  def save!\n    true\n  end\nend\n',
    'bin/run.sh': 'my-func() {\n  echo hi\n}\n',
  };
  // Uses of both, shallower than the definitions: a page stopped after them would miss the definition.
  for (let i = 0; i < 5; i++) files[`u${i}.rb`] = 'm.save!\nmy-func\n';
  await withIndexedTree(files, ({ root, reader, symbols }) => {
    for (const [pattern, defined] of [
      ['save!', 'app/model.rb:2'],
      ['my-func', 'bin/run.sh:1'],
    ] as const) {
      const query: SearchQuery = { pattern, limit: 1_000, sourceFirst: true };
      const { ranked } = rankSearch(root, symbols, query, reader.search(query).matches);
      const first = ranked[0]!;
      assert.is(`${first.match.path}:${first.match.line}`, defined, pattern);
      assert.is(first.describe().definition, true, `${pattern}: its definition says so`);
      const early = searchFirstResults(reader, root, symbols, query, 1);
      assert.is(early.certain, undefined, `${pattern}: read to the end`);
      assert.equal(ids(early.ranked), ids(ranked));
    }
  });
});

test('a name with more definitions than are ranked stops early only where no definition left out could rank before the page', async () => {
  // Sixty exported definitions of Close, ten to a depth, and shallower uses: the seeds take the
  // fifty shallowest, and the ten left out outrank every use.
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`${'d/'.repeat(1 + Math.floor(i / 10))}c${i}.go`] = `package p\n\nfunc (x *T${i}) Close() error { return nil }\n`;
  for (let i = 0; i < 30; i++) files[`u${i}.go`] = `package p\n\nfunc use${i}(x T) {\n\tx.Close()\n}\n`;
  await withIndexedTree(files, ({ root, reader, symbols }) => {
    for (const caseSensitive of [false, true]) {
      const query: SearchQuery = { pattern: 'Close', caseSensitive, limit: 1_000, sourceFirst: true };
      const expected = ids(rankSearch(root, symbols, query, reader.search(query).matches).ranked);
      assert.is(expected.length, 90);
      const certain: Array<number | undefined> = [];
      for (const end of [1, 3, 20, 50, 51, 55, 60, 61]) {
        const first = searchFirstResults(reader, root, symbols, query, end);
        certain.push(first.certain);
        const shown = first.certain ?? expected.length;
        assert.equal(ids(first.ranked).slice(0, shown), expected.slice(0, shown), `first ${end} (${caseSensitive})`);
      }
      // A page is certain once no file holding a definition of the name is left unread at a
      // depth above its last result: ten definitions to a depth, the ten left out the deepest
      // (read last). A page of all sixty or more reads to the end.
      assert.equal(certain, [10, 10, 20, 50, 51, 55, undefined, undefined]);
    }
  });
});

test('the plan tries the cheapest ways a page allows, and only the last one always serves', () => {
  const literal: SearchQuery = { pattern: 'read', limit: 1_000, sourceFirst: true };
  assert.equal(firstPagePlan(literal, 20, false), ['direct-scan'], 'no index yet: a direct scan alone');
  assert.equal(firstPagePlan(literal, 20, true), ['definitions-only', 'early-page', 'whole']);
  // Past the seeds' reach (50 definitions) the definitions cannot decide the page; the early page still may.
  assert.equal(firstPagePlan(literal, 60, true), ['early-page', 'whole']);
  assert.equal(firstPagePlan(literal, 1_001, true), ['whole'], 'past the pool');
  assert.equal(firstPagePlan({ ...literal, regex: true }, 20, true), ['whole'], 'a regex reads everything');
  assert.equal(firstPagePlan({ ...literal, sourceFirst: false }, 20, true), ['whole'], 'not in ranking order');
  assert.equal(firstPagePlan({ ...literal, pattern: 'größe' }, 20, true), ['whole'], 'case folding beyond ASCII');
  assert.ok(serves(undefined, 1_000), 'an answer that read everything serves every page');
  assert.ok(serves({ by: 'definitions-only', results: 20 }, 20));
  assert.not.ok(serves({ by: 'definitions-only', results: 19 }, 20), 'a page past what is certain falls to the next way');
});

test.run();
