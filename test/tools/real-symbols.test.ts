/**
 * Symbols of real code nobody here wrote, through the tools an agent calls: the Rust standard
 * library's `std/src/fs.rs` (Debian's rust-src, which .ci/run installs), where `impl Read for
 * File` and `impl Read for &File` both define `read_to_string` beside the free function of that
 * name; and Java and C# declarations under annotations and attributes.
 */
import { rustFs, withRustSource } from '../helpers/rust-src.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { call, withIndexedProject } from '../helpers/projects.js';
import { errorCode, type ToolResult } from '../helpers/tool-result.js';

const text = (result: ToolResult): string => result.content.map((part) => part.text ?? '').join('\n');
const withRust = withRustSource('real-symbols');

interface Candidate {
  path: string;
  line: number;
  kind: string;
  qualified_name: string;
}

withRust("Rust's fs.rs: impl blocks of &File name File; a line picks one of several definitions a path cannot separate", async () => {
  const source = rustFs();
  const lineAt = (index: number): number => source.slice(0, index).split('\n').length;
  // read_to_string of `impl Read for &File`: the first one after that line.
  const refLine = lineAt(source.indexOf('fn read_to_string', source.indexOf('impl Read for &File {')));
  await withIndexedProject({ 'std/src/fs.rs': source }, async (client) => {
    const located = await call(client, 'locate_symbol', { name: 'read_to_string', limit: 10 });
    const definitions = (located.structuredContent!.symbols as Array<{ qualified_name: string; kind: string }>).map(
      (symbol) => `${symbol.kind} ${symbol.qualified_name}`,
    );
    assert.ok(definitions.filter((one) => one === 'method File::read_to_string').length >= 2, definitions.join(', '));
    assert.ok(definitions.includes('function read_to_string'), definitions.join(', '));

    // The bare name is the free function's own qualified name: it wins, as before.
    const free = await call(client, 'find_related_symbols', { symbol_name: 'read_to_string', path: 'std/src/fs.rs' });
    assert.not.ok(free.isError, text(free));
    assert.is((free.structuredContent!.symbol as { kind: string }).kind, 'function');

    // File's two (of `impl Read for File` and of `impl Read for &File`) share a path and a qualified name: a line tells them apart.
    const ambiguous = await call(client, 'find_related_symbols', { symbol_name: 'File::read_to_string', path: 'std/src/fs.rs' });
    assert.is(errorCode(ambiguous), 'ambiguous_symbol');
    const candidates = (ambiguous._meta?.['dev.sextant/error'] as { data?: { candidates?: Candidate[] } } | undefined)?.data?.candidates;
    const listed = text(ambiguous);
    assert.match(listed, '2 definitions are named "File::read_to_string"; pass line (one of the lines listed) to pick one');
    assert.match(listed, `std/src/fs.rs:${refLine}: method File::read_to_string`);
    if (candidates) assert.ok(candidates.some((candidate) => candidate.line === refLine && candidate.qualified_name === 'File::read_to_string'));
    // Without a path too: both methods share the qualified name.
    const bare = await call(client, 'get_symbol_hierarchy', { symbol_name: 'File::read_to_string' });
    assert.is(errorCode(bare), 'ambiguous_symbol');

    // A line inside the method picks it: the one of `impl Read for &File`, whose calls are its own.
    const picked = await call(client, 'find_related_symbols', { symbol_name: 'File::read_to_string', path: 'std/src/fs.rs', line: refLine + 1 });
    assert.not.ok(picked.isError, text(picked));
    const symbol = picked.structuredContent!.symbol as { line: number; qualified_name: string };
    assert.equal({ line: symbol.line, qualified: symbol.qualified_name }, { line: refLine, qualified: 'File::read_to_string' });
    const hierarchy = await call(client, 'get_symbol_hierarchy', { symbol_name: 'File::read_to_string', line: refLine });
    assert.is((hierarchy.structuredContent!.symbol as { line: number }).line, refLine);

    const nowhere = await call(client, 'find_related_symbols', { symbol_name: 'File::read_to_string', path: 'std/src/fs.rs', line: 1 });
    assert.is(errorCode(nowhere), 'symbol_not_found');
    assert.match(text(nowhere), 'No definition named "File::read_to_string" in std/src/fs.rs holding line 1');

    // Structs, their fields, and macros are symbols of their own kinds.
    const file = await call(client, 'locate_symbol', { name: 'File', kind: 'struct' });
    assert.ok(
      (file.structuredContent!.symbols as Candidate[]).some((one) => one.qualified_name === 'File'),
      text(file),
    );
    const inner = await call(client, 'locate_symbol', { name: 'inner', kind: 'field' });
    assert.ok(
      (inner.structuredContent!.symbols as Candidate[]).some((one) => one.qualified_name === 'File::inner'),
      text(inner),
    );
  });
});

test('Java and C#: a signature is the declaration, not the annotations or attributes above it', async () => {
  const files = {
    'src/Versioned.java':
      'class Versioned {\n    @java.io.Serial\n    private static final long serialVersionUID = 1L;\n\n    @Override\n' +
      '    @SuppressWarnings("unchecked")\n    public String toString() {\n        return "v";\n    }\n}\n',
    'src/Store.cs': 'public class Store {\n    [Obsolete("use Save")]\n    [MethodImpl(MethodImplOptions.NoInlining)]\n    public void Put(int key) { }\n}\n',
  };
  await withIndexedProject(files, async (client) => {
    const signatureOf = async (name: string): Promise<string> => {
      const found = await call(client, 'locate_symbol', { name });
      return (found.structuredContent!.symbols as Array<{ signature: string }>)[0]!.signature;
    };
    assert.is(await signatureOf('serialVersionUID'), 'private static final long serialVersionUID = 1L;');
    assert.is(await signatureOf('toString'), 'public String toString()');
    assert.is(await signatureOf('Put'), 'public void Put(int key) { }');
  });
});

withRust("Rust's fs.rs: a type is found by its members (Permissions, through set_readonly and readonly)", async () => {
  // Permissions' own doc ("Representation of the various permissions on a file") says none of
  // the question; its members' names and docs do.
  await withIndexedProject({ 'std/src/fs.rs': rustFs() }, async (client) => {
    const answer = await call(client, 'get_code_context', { query: 'toggle the read-only flag' });
    const names = (answer.structuredContent!.context_items as Array<{ qualified_name: string }>).map((item) => item.qualified_name);
    const type = names.indexOf('Permissions');
    assert.ok(type >= 0 && type < 5, names.join(', '));
    const member = names.indexOf('Permissions::set_readonly');
    assert.ok(member >= 0 && member < type, names.join(', '));
  });
});

test.run();
