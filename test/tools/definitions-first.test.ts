/**
 * search_code stops before the text search when the page is certain: the symbol index holds
 * every definition of the name, and enough of them outrank any text match to fill the page. The
 * answer says so (definitions_only, truncated, a cursor, the note in the text); its page is the
 * whole search's page, and the next page, past the definitions, runs the whole search.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call, withIndexedProject } from '../helpers/projects.js';
import type { ToolResult } from '../helpers/tool-result.js';

type Json = Record<string, unknown>;
const places = (result: ToolResult) => (result.structuredContent!.results as Json[]).map((item) => `${item.path}:${item.line}`);

const FILES: Record<string, string> = {
  'one/one.go': 'package one\n\n// Render draws one.\nfunc Render() string { return "one" }\n',
  'two/two.go': 'package two\n\nfunc Render() int { return 2 }\n',
  'three/three.go': 'package three\n\ntype T struct{}\n\nfunc (T) Render() {}\n',
  'py/render.py': 'def render():\n    return None\n',
  // Uses, many of them: a whole search would rank these after every definition.
  'use/use.go': `package use\n\nfunc use() {\n${'\tone.Render()\n\ttwo.Render()\n'.repeat(30)}}\n`,
  'use/use_test.go': 'package use\n\n// Render is tested here.\nfunc TestRender() { one.Render() }\n',
};

test('a page the definitions fill is answered from them alone, and is the whole search page; the cursor goes on with every match', async () => {
  await withIndexedProject(FILES, async (client) => {
    const early = await call(client, 'search_code', { query: 'Render', limit: 3 });
    assert.not.ok(early.isError, early.content[0]?.text);
    const structured = early.structuredContent!;
    assert.is(structured.definitions_only, true);
    assert.is(structured.result_completeness, 'truncated');
    assert.is(structured.total_matches, 4, 'the four definitions, any case');
    assert.is(structured.candidates, undefined, 'no candidate file was read');
    assert.ok((structured.results as Json[]).every((item) => item.definition === true));
    const text = early.content[0]!.text;
    assert.match(text, /4 definitions of the name ranked \(other matches not searched yet: none can rank above this page\); showing 1-3/);
    assert.match(text, /the other matches were not searched/);
    assert.match(text, /call again with the same arguments and cursor "/, 'the cursor is in the text too');
    assert.type(structured.nextCursor, 'string');

    // The whole search, as a page too large for the definitions to decide: the same first three.
    const whole = await call(client, 'search_code', { query: 'Render', limit: 60 });
    assert.is(whole.structuredContent!.definitions_only, undefined);
    assert.ok((whole.structuredContent!.total_matches as number) > 60);
    assert.equal(places(early), places(whole).slice(0, 3));

    // The next page continues the whole ranking, past the definitions into the uses.
    const next = await call(client, 'search_code', { query: 'Render', limit: 3, cursor: structured.nextCursor });
    assert.not.ok(next.isError, next.content[0]?.text);
    assert.is(next.structuredContent!.definitions_only, undefined);
    assert.equal(places(next), places(whole).slice(3, 6));
  });
});

test('no early answer where a text match could come first: a page past the definitions, a regex, a name not defined', async () => {
  await withIndexedProject(FILES, async (client) => {
    const wide = await call(client, 'search_code', { query: 'Render', limit: 5 });
    assert.is(wide.structuredContent!.definitions_only, undefined, 'four definitions cannot decide a page of five');
    assert.is(places(wide).length, 5);
    const regex = await call(client, 'search_code', { query: 'Render', regex: true, limit: 1 });
    assert.is(regex.structuredContent!.definitions_only, undefined);
    const phrase = await call(client, 'search_code', { query: 'draws one', limit: 1 });
    assert.is(phrase.structuredContent!.definitions_only, undefined);
    assert.equal(places(phrase), ['one/one.go:3']);
  });
});

test('a name inside a longer identifier just below a definition defines nothing, so no text match outranks an early page', async () => {
  const files = {
    'ent/darwin.go': 'package ent\n\nfunc GetEntropy(p []byte) error {\n\treturn call(libc_getentropy_trampoline)\n}\n',
    'ent/openbsd.go': 'package ent\n\nfunc GetEntropy(p []byte) error {\n\treturn nil\n}\n',
    'sys/zsys.go': 'package sys\n\nfunc getentropy(p []byte) (err error) {\n\treturn nil\n}\n',
    // C: the name on the line below the definition's start is still the definition.
    'c/ready.c': 'static int\nfoo_ready(void)\n{\n\treturn 0;\n}\n',
  };
  await withIndexedProject(files, async (client) => {
    // The early page first: once the whole answer is kept, it answers every page.
    const early = await call(client, 'search_code', { query: 'getentropy', limit: 3 });
    assert.is(early.structuredContent!.definitions_only, true);
    const whole = await call(client, 'search_code', { query: 'getentropy', limit: 60 });
    const results = whole.structuredContent!.results as Json[];
    const inBody = results.find((item) => item.path === 'ent/darwin.go' && item.line === 4)!;
    assert.ok(inBody, 'the use inside the body is found');
    assert.is(inBody.definition, undefined);
    assert.not.ok((inBody.rank_notes as string[]).some((note) => note.startsWith('defines')));
    assert.equal(places(early), places(whole).slice(0, 3));
    const c = await call(client, 'search_code', { query: 'foo_ready', limit: 60 });
    const named = (c.structuredContent!.results as Json[]).find((item) => item.path === 'c/ready.c' && item.line === 2)!;
    assert.is(named.definition, true);
  });
});

test.run();
