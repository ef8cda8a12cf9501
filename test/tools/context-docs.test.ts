/**
 * get_code_context finds a definition by what its doc comment says, in every language's way of
 * writing one, and puts the public surface ahead of platform internals and private definitions;
 * on small trees written for it, and on the Rust standard library's fs.rs (Debian's rust-src,
 * which .ci/run installs).
 */
import { writeFileSync } from 'node:fs';
import { rustFs, withRustSource } from '../helpers/rust-src.js';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call, withIndexedProject } from '../helpers/projects.js';
import type { ToolResult } from '../helpers/tool-result.js';
import { eventually } from '../helpers/wait.js';
import { indexTree, withIndexedTree } from '../helpers/indexed-tree.js';
import { DocIndex } from '../../src/tools/context/doc-index.js';
import { IndexStore } from '../../src/index/store/store.js';
import { SymbolIndex } from '../../src/index/symbols/symbol-index.js';

interface Item {
  name: string;
  qualified_name: string;
  path: string;
}

const firstItems = (result: ToolResult, count = 3): string[] =>
  ((result.structuredContent?.context_items ?? []) as Item[]).slice(0, count).map((item) => `${item.qualified_name} ${item.path}`);

const DOCUMENTED = {
  'py/stats.py': 'def middle(values):\n    """Return the central value of a numeric sample, averaging the two central points."""\n    return 0\n',
  'java/Gate.java':
    'public class Gate {\n    /**\n     * Restricts how many callers may hold a permit at once.\n     * @param permits the initial count\n     */\n' +
    '    public Gate(int permits) {}\n}\n',
  'go/clock.go': 'package clock\n\n// Elapsed reports the wall time since a recorded instant on a monotonic reading.\nfunc Since(t int) int { return 0 }\n',
  'cs/Store.cs':
    'public class Store {\n    /// <summary>Persists the entity to durable storage.</summary>\n    [Obsolete]\n    public void Put(int key) { }\n}\n',
  'rb/shell.rb': '# Quotes a word so a Bourne shell reads it as one argument.\ndef quoteword(str)\n  str\nend\n',
  'rs/lib.rs': '/// Splits the text at the first occurrence of the separator.\n#[inline]\npub fn cut_once(s: &str) {}\n',
};

test('a doc comment finds its definition, whatever the name says, in each language', async () => {
  await withIndexedProject(DOCUMENTED, async (client) => {
    const ask = async (query: string): Promise<string[]> => firstItems(await call(client, 'get_code_context', { query }), 1);
    assert.equal(await ask('central value of a numeric sample'), ['middle py/stats.py']);
    assert.equal(await ask('restrict how many callers hold a permit'), ['Gate.Gate java/Gate.java']);
    assert.equal(await ask('wall time since an instant, monotonic'), ['Since go/clock.go']);
    assert.equal(await ask('persist the entity to durable storage'), ['Store.Put cs/Store.cs']);
    assert.equal(await ask('quote for a Bourne shell argument'), ['quoteword rb/shell.rb']);
    assert.equal(await ask('split text at the first separator'), ['cut_once rs/lib.rs']);
  });
});

test("a question's words find the code's own words for the same thing", async () => {
  const files = {
    'src/tree.py': 'def remove_dir_tree(path):\n    pass\n\n\ndef list_entries(path):\n    pass\n',
    'src/config.go': 'package config\n\nfunc LoadCfg(path string) {}\n\nfunc ParseEnv() {}\n',
  };
  await withIndexedProject(files, async (client) => {
    const first = async (query: string): Promise<string | undefined> => firstItems(await call(client, 'get_code_context', { query }), 1)[0];
    assert.is(await first('delete a folder and everything under it'), 'remove_dir_tree src/tree.py');
    assert.is(await first('read the environment'), 'ParseEnv src/config.go');
  });
});

test('the public surface comes before platform internals that say the same', async () => {
  const files = {
    'src/sys/unix/guard.rs': '/// Acquires the platform guard, blocking until it is free.\npub fn acquire_platform_guard() {}\n',
    'src/guarded.rs': '/// Acquires the guard, blocking until it is free.\npub fn acquire_guard() {}\n',
    'src/private.rs': '/// Acquires the guard, blocking until it is free.\nfn acquire_guard_unchecked() {}\n',
  };
  await withIndexedProject(files, async (client) => {
    const surface = firstItems(await call(client, 'get_code_context', { query: 'acquire guard blocking until free' }), 5);
    const at = (name: string): number => surface.findIndex((item) => item.startsWith(`${name} `));
    assert.is(at('acquire_guard'), 0, surface.join(', '));
    assert.ok(at('acquire_platform_guard') > 0 && at('acquire_guard_unchecked') > 0, surface.join(', '));
  });
});

test('a doc comment rewritten is read again once the symbols are', async () => {
  await withIndexedProject(
    { 'src/clock.ts': '/** Counts the ticks of a pendulum. */\nexport function tally(): number {\n  return 0;\n}\n' },
    async (client, root) => {
      const before = firstItems(await call(client, 'get_code_context', { query: 'ticks of a pendulum' }), 1);
      assert.equal(before, ['tally src/clock.ts']);
      writeFileSync(join(root, 'src/clock.ts'), '/** Measures the swing of a metronome. */\nexport function tally(): number {\n  return 0;\n}\n');
      const synced = await call(client, 'sync_repo', {});
      assert.not.ok(synced.isError);
      await eventually(
        async () => firstItems(await call(client, 'get_code_context', { query: 'swing of a metronome' }), 1)[0] === 'tally src/clock.ts',
        'the new doc is found',
      );
    },
  );
});

test("a new generation of the symbols reads again only the files that changed; the others' docs are taken as they were", async () => {
  const files = { 'a.py': 'def alpha():\n    """Counts the apples."""\n', 'b.py': 'def beta():\n    """Weighs the pears."""\n' };
  await withIndexedTree(files, async ({ root, home, symbols }) => {
    const first = await DocIndex.build(root, symbols);
    // An edit that changes the size, so the stamp (time and size) differs even within one clock tick.
    writeFileSync(join(root, 'b.py'), 'def beta():\n    """Peels the oranges, slowly."""\n');
    await indexTree(root, home);
    const newer = SymbolIndex.open(new IndexStore(root, home))!;
    try {
      const second = await DocIndex.build(root, newer, first);
      const docOf = (index: DocIndex, path: string) => index.entries.find((entry) => entry.path === path);
      assert.is(docOf(second, 'a.py'), docOf(first, 'a.py'), 'the unchanged file: its entry taken, not read again');
      assert.equal(docOf(second, 'b.py')!.summary, ['peel', 'orange', 'slowli']);
    } finally {
      newer.close();
    }
  });
});

withRustSource('context-docs')("Rust's fs.rs: a doc comment's sentence pasted finds its function", async () => {
  await withIndexedProject({ 'std/src/fs.rs': rustFs() }, async (client) => {
    const ask = async (query: string, count: number): Promise<string[]> => firstItems(await call(client, 'get_code_context', { query }), count);
    const pasted = await ask('Recursively create a directory and all of its parent components if they are missing.', 1);
    assert.equal(pasted, ['create_dir_all std/src/fs.rs']);
    const summary = await ask('Read the entire contents of a file into a string', 3);
    assert.ok(summary.includes('read_to_string std/src/fs.rs'), summary.join(', '));
  });
});

test.run();
