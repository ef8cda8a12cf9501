/**
 * read_file and list_files on a real indexed project over Streamable HTTP (an SDK client), their
 * answers checked against their output schemas by the server itself: the lines of a file with
 * their numbers, cut with where to continue; the tree of a folder with sums below its depth,
 * paged; and every refusal, in the same words for what the index skips as for what is not there.
 */
import { mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call, withIndexedProject } from '../helpers/projects.js';
import { errorCode, type ToolResult } from '../helpers/tool-result.js';

const text = (result: ToolResult): string => result.content.map((part) => part.text ?? '').join('\n');
const long = Array.from({ length: 2_500 }, (_, index) => `line ${index + 1} of the long file`).join('\n') + '\n';
const FILES = {
  'src/app.ts': 'export function main() {\n  return 1;\n}\n',
  'src/long.ts': long,
  'src/deep/a/b/c.ts': 'export const c = 1;\n',
  'src/deep/a/d.ts': 'export const d = 1;\n',
  'docs/readme.md': '# readme\n',
  '.gitignore': 'secret.env\n',
  'secret.env': 'TOKEN=hunter2\n',
  'image.bin': 'PNG\u0000\u0001\u0002binary',
};

test('read_file: numbered lines, the default window, where to continue, and a window asked for', async () => {
  await withIndexedProject(FILES, async (client, root) => {
    const small = await call(client, 'read_file', { path: 'src/app.ts' });
    assert.not.ok(small.isError, text(small));
    assert.is(text(small), 'src/app.ts: lines 1-3 of 3 (typescript)\n1: export function main() {\n2:   return 1;\n3: }');
    assert.equal(
      { ...small.structuredContent, workspace: undefined, updated_at: undefined },
      {
        workspace: undefined,
        updated_at: undefined,
        indexing_status: 'ready',
        result_completeness: 'complete',
        path: 'src/app.ts',
        language: 'typescript',
        start_line: 1,
        end_line: 3,
        total_lines: 3,
        text: 'export function main() {\n  return 1;\n}',
      },
    );
    const first = await call(client, 'read_file', { path: 'src/long.ts' });
    assert.is(first.structuredContent!.end_line, 400, 'the default window');
    assert.is(first.structuredContent!.next_start_line, 401);
    assert.is(first.structuredContent!.result_completeness, 'truncated');
    assert.match(text(first), 'More: call again with start_line 401.');
    const window = await call(client, 'read_file', { path: 'src/long.ts', start_line: 2_400, end_line: 2_410 });
    assert.match(text(window), '2400: line 2400 of the long file');
    assert.match(text(window), '2410: line 2410 of the long file');
    assert.is(window.structuredContent!.next_start_line, undefined, 'all that was asked');
    const budget = await call(client, 'read_file', { path: 'src/long.ts', start_line: 1, end_line: 2_500 });
    const end = budget.structuredContent!.end_line as number;
    assert.ok(end < 2_500 && budget.structuredContent!.next_start_line === end + 1, 'cut by the line or output budget, with where to continue');
    const past = await call(client, 'read_file', { path: 'src/app.ts', start_line: 9 });
    assert.is(errorCode(past), 'invalid_input');
    assert.match(text(past), 'start_line 9 is past the end of src/app.ts (3 lines)');
    // The same window again is made once; an edit (the same size, so only the file's time and inode tell) is read anew.
    const again = await call(client, 'read_file', { path: 'src/app.ts' });
    assert.is(text(again), text(small));
    const edited = join(root, 'src/app.ts');
    writeFileSync(`${edited}.next`, 'export function mine() {\n  return 2;\n}\n');
    renameSync(`${edited}.next`, edited);
    const after = await call(client, 'read_file', { path: 'src/app.ts' });
    assert.is(text(after), 'src/app.ts: lines 1-3 of 3 (typescript)\n1: export function mine() {\n2:   return 2;\n3: }');
  });
});

test('read_file refuses, clearly: a path out of the project (.., absolute, a link out); and in the same words for what the index skips (ignored, binary) as for what is not there', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'sextant-outside-'));
  writeFileSync(join(outside, 'elsewhere.txt'), 'not the project\n');
  try {
    await withIndexedProject(FILES, async (client, root) => {
      symlinkSync(join(outside, 'elsewhere.txt'), join(root, 'link-out.txt'));
      for (const path of ['../etc/passwd', '/etc/passwd', 'src/../../x', 'link-out.txt']) {
        const refused = await call(client, 'read_file', { path });
        assert.is(errorCode(refused), 'invalid_input', path);
        assert.match(text(refused), 'outside the workspace');
        assert.not.ok(text(refused).includes('not the project'), path);
      }
      const words = (path: string, result: ToolResult): string => text(result).replaceAll(JSON.stringify(path), '"PATH"');
      const missing = await call(client, 'read_file', { path: 'no/such/file.ts' });
      assert.is(errorCode(missing), 'file_not_found');
      for (const path of ['secret.env', 'image.bin']) {
        const refused = await call(client, 'read_file', { path });
        assert.is(errorCode(refused), 'file_not_found', path);
        assert.is(words(path, refused), words('no/such/file.ts', missing), `${path}: the same words as a file that is not there`);
        assert.not.ok(text(refused).includes('hunter2') || text(refused).includes('not the project'), path);
      }
    });
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test('list_files: files within depth, folders summed below it, a glob, pages with a cursor; what the index skips is not listed', async () => {
  await withIndexedProject(FILES, async (client) => {
    const root = await call(client, 'list_files', { depth: 1 });
    assert.not.ok(root.isError, text(root));
    const entries = root.structuredContent!.entries as Array<Record<string, unknown>>;
    assert.equal(
      entries.map((entry) => [entry.path, entry.type, entry.files ?? null]),
      [
        ['.gitignore', 'file', null],
        ['docs', 'folder', 1],
        ['src', 'folder', 4],
      ],
    );
    assert.not.ok(text(root).includes('secret.env') || text(root).includes('image.bin'), 'what the index skips is not listed');
    const src = await call(client, 'list_files', { path: 'src', depth: 2 });
    assert.equal(
      (src.structuredContent!.entries as Array<Record<string, unknown>>).map((entry) => [entry.path, entry.type]),
      [
        ['src/app.ts', 'file'],
        ['src/deep/a', 'folder'],
        ['src/long.ts', 'file'],
      ],
    );
    const globbed = await call(client, 'list_files', { glob: '**/*.md', depth: 10 });
    assert.equal(
      (globbed.structuredContent!.entries as Array<{ path: string }>).map((entry) => entry.path),
      ['docs/readme.md'],
    );
    const pages: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(client, 'list_files', { depth: 10, limit: 2, ...(cursor ? { cursor } : {}) });
      pages.push(...(page.structuredContent!.entries as Array<{ path: string }>).map((entry) => entry.path));
      cursor = page.structuredContent!.nextCursor as string | undefined;
      if (cursor) assert.match(text(page), cursor, 'the cursor in the text too');
    } while (cursor);
    assert.equal(pages, ['.gitignore', 'docs/readme.md', 'src/app.ts', 'src/deep/a/b/c.ts', 'src/deep/a/d.ts', 'src/long.ts']);
    const stale = await call(client, 'list_files', { depth: 3, cursor: 'bm90LWEtY3Vyc29y' });
    assert.is(errorCode(stale), 'invalid_input');
    const none = await call(client, 'list_files', { path: 'no-such-folder' });
    assert.is(errorCode(none), 'file_not_found');
  });
});

test.run();
