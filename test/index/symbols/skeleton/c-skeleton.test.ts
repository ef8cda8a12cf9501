import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Language, Parser, Query } from 'web-tree-sitter';
import { cSkeleton } from '../../../../src/index/symbols/skeleton/c-skeleton.js';
import { SymbolExtractor } from '../../../../src/index/symbols/extract.js';
import type { ReferenceInfo, SymbolInfo } from '../../../../src/index/symbols/types.js';
import { wasmPath, GRAMMARS } from '../../../../src/index/symbols/grammars.js';

/**
 * C is parsed as a skeleton (function bodies, initializers, argument lists, define values and
 * comments cut; calls in bodies found lexically): the same definitions and calls as a parse of
 * the whole file, at a third of the cost.
 */
const extractor = await SymbolExtractor.create();

const key = (symbol: SymbolInfo): string =>
  `${symbol.kind} ${symbol.qualifiedName} ${symbol.line}:${symbol.column}-${symbol.endLine}:${symbol.endColumn} ${symbol.signature}`;
const callKey = (reference: ReferenceInfo): string => `${reference.kind} ${reference.name} ${reference.line}:${reference.column}`;

/** Real C: tree-sitter's own runtime, shipped with web-tree-sitter (pinned by the lockfile). */
const runtimeSources = join(dirname(createRequire(import.meta.url).resolve('web-tree-sitter')), 'lib');

test('on real C, the skeleton finds every definition and call a parse of the whole file finds', async () => {
  const files = readdirSync(runtimeSources).filter((name) => /\.[ch]$/.test(name));
  assert.ok(files.length >= 20, `C sources in ${runtimeSources}`);
  let definitions = 0;
  let calls = 0;
  let extraCalls = 0;
  for (const file of files) {
    const source = readFileSync(join(runtimeSources, file), 'utf8');
    assert.ok(cSkeleton(source), `${file}: braces balance, so there is a skeleton`);
    const whole = await extractor.extract('c', source, { whole: true });
    const skeleton = await extractor.extract('c', source);
    const found = new Set(skeleton.symbols.map(key));
    for (const symbol of whole.symbols) {
      // A type declared inside a function body is the one thing a skeleton cannot see (ctags does not list it either).
      const inBody = whole.symbols.some((outer) => outer.kind === 'function' && outer.line < symbol.line && outer.endLine > symbol.endLine);
      if (!inBody) assert.ok(found.has(key(symbol)), `${file}: ${key(symbol)}`);
    }
    const kept = new Set(whole.symbols.map(key));
    for (const symbol of skeleton.symbols) assert.ok(kept.has(key(symbol)), `${file}: the skeleton adds ${key(symbol)}`);
    const skeletonCalls = new Set(skeleton.references.map(callKey));
    for (const reference of whole.references) assert.ok(skeletonCalls.has(callKey(reference)), `${file}: ${callKey(reference)}`);
    const wholeCalls = new Set(whole.references.map(callKey));
    extraCalls += skeleton.references.filter((reference) => !wholeCalls.has(callKey(reference))).length;
    definitions += whole.symbols.length;
    calls += whole.references.length;
  }
  assert.ok(definitions > 800 && calls > 3000, `${definitions} definitions, ${calls} references compared`);
  // Macros used like statements (`array_foreach(...) {`) read as calls lexically, not always in the tree.
  assert.ok(extraCalls / calls < 0.01, `${extraCalls} calls found only lexically, of ${calls}`);
});

const TRICKY = [
  '#include <stdio.h>',
  '#define LIMIT 10 /* a comment',
  '   spanning lines */',
  '#define MAX(a, b) \\',
  '  ((a) > (b) ? (a) : (b))',
  '',
  'struct point { int x; struct inner { int y; } in; };',
  'typedef struct point point_t;',
  'static const char *names[] = { "}", "{", NULL };',
  'static int helper(int a, /* ) { */ char b) { return printf("%d{", a) + b; }',
  '#ifdef WIDE',
  'int entry(long value) {',
  '#else',
  'int entry(int value) {',
  '#endif',
  '  #define LOCAL 1',
  "  point_t p = { .x = helper(value, 'x') };",
  '  p.in.y = obj->method(2) + obj.field(3);',
  '  // helper(9) in a comment, and "helper(8)" in a string:',
  '  puts("helper(8)");',
  '  if (value) return MAX(value, LIMIT);',
  "  return helper(LOCAL, '{');",
  '}',
  'static void __init late_init(void) { entry(1); }',
  '',
].join('\n');

test('braces in literals and comments, conditional function heads, defines in bodies, member calls', async () => {
  const { symbols, references } = await extractor.extract('c', TRICKY);
  const byName = new Map(symbols.map((symbol) => [symbol.qualifiedName, symbol]));
  // `late_init` is found only here: a whole parse reads `void __init late_init(void)` as a declaration of `__init`.
  assert.equal([...byName.keys()].sort(), ['LIMIT', 'LOCAL', 'MAX', 'entry', 'helper', 'late_init', 'point', 'point.inner', 'point_t']);
  assert.is(byName.get('LIMIT')!.kind, 'constant');
  assert.equal([byName.get('LIMIT')!.line, byName.get('LIMIT')!.endLine], [2, 3], 'a define runs on through its comment');
  assert.is(byName.get('MAX')!.kind, 'function');
  assert.equal([byName.get('MAX')!.line, byName.get('MAX')!.endLine], [4, 5]);
  assert.equal([byName.get('LOCAL')!.line, byName.get('LOCAL')!.column], [16, 3], 'a define inside a body');
  assert.is(byName.get('point.inner')!.parent, 'point');
  assert.equal([byName.get('entry')!.line, byName.get('entry')!.endLine, byName.get('entry')!.endColumn], [12, 23, 2], 'the body ends at its own brace');
  assert.is(byName.get('helper')!.signature, 'static int helper(int a, /* ) { */ char b) { return printf("%d{", a) + b; }');
  const calls = references.filter((reference) => reference.kind === 'call').map(callKey);
  assert.equal(calls, ['call printf 10:53', 'call helper 17:22', 'call puts 20:3', 'call MAX 21:21', 'call helper 22:10', 'call entry 24:38']);
  assert.equal(
    references.filter((reference) => reference.kind === 'import').map((reference) => reference.name),
    ['<stdio.h>'],
  );
  // What a parse of the whole file finds, the skeleton finds, at the same places.
  const whole = await extractor.extract('c', TRICKY, { whole: true });
  const found = new Set(symbols.map(key));
  // (`late_init` is where the whole parse's recovery puts it: from its name on.)
  for (const symbol of whole.symbols.filter((symbol) => byName.has(symbol.qualifiedName) && symbol.name !== 'entry' && symbol.name !== 'late_init'))
    assert.ok(found.has(key(symbol)), key(symbol));
});

const STRUCTS = [
  '#define KEY_SIZE(bits) ((bits) / 8)',
  'struct key /* a comment before the brace */',
  '{',
  '\tu8 bytes[KEY_SIZE(128)];',
  '\tDECLARE_BITMAP(flags, 64);',
  '#ifdef CONFIG_WIDE',
  '\tu64 wide;',
  '#else',
  '\tu32 narrow;',
  '#endif',
  '\tunion { int a; long b; };',
  '\tchar *name; /* } a brace in a comment */',
  '\tconst char *text; // "}"',
  '};',
  'typedef struct { int x, y; } point_t;',
  'union value { int i; float f; } __attribute__((packed));',
  'struct outer {',
  '\tstruct inner { int depth; } in;',
  '\tint width;',
  '};',
  'enum mode { MODE_A = 1, MODE_B,',
  '#define MODE_B MODE_B',
  '};',
  'int use(struct key *k) { return KEY_SIZE(k->bytes[0]); }',
  '',
].join('\n');

test('struct and union bodies are cut: definitions, ranges and the calls in array sizes stay those of the whole parse', async () => {
  const skeleton = cSkeleton(STRUCTS)!;
  assert.ok(!skeleton.text.includes('narrow') && !skeleton.text.includes('DECLARE_BITMAP') && !skeleton.text.includes('long b'), skeleton.text);
  assert.ok(skeleton.text.includes('#ifdef CONFIG_WIDE'), 'directives in a body stay');
  // A struct that defines a named one inside is kept whole (the inner one is a definition); an enum's body is never cut.
  assert.ok(skeleton.text.includes('struct inner { int depth; } in;') && skeleton.text.includes('MODE_A = 1'), skeleton.text);
  for (let index = 0; index < skeleton.text.length; index++) assert.is(STRUCTS[skeleton.toSource(index)], skeleton.text[index], `text[${index}]`);

  const cut = await extractor.extract('c', STRUCTS);
  const whole = await extractor.extract('c', STRUCTS, { whole: true });
  assert.equal(cut.symbols.map(key).sort(), whole.symbols.map(key).sort());
  assert.equal(cut.symbols.map((symbol) => symbol.qualifiedName).sort(), ['KEY_SIZE', 'key', 'mode', 'outer', 'outer.inner', 'point_t', 'use', 'value']);
  const key_ = cut.symbols.find((symbol) => symbol.name === 'key')!;
  assert.equal([key_.line, key_.endLine, key_.endColumn], [2, 14, 2], 'the struct ends at its own brace, past braces in comments and literals');
  // The call in an array size is found, as the tree finds it; a macro standing for a member is not a call.
  assert.equal(
    cut.references
      .filter((reference) => reference.kind === 'call')
      .map(callKey)
      .sort(),
    whole.references
      .filter((reference) => reference.kind === 'call')
      .map(callKey)
      .sort(),
  );
  assert.ok(cut.references.some((reference) => callKey(reference) === 'call KEY_SIZE 4:11'));
  assert.not.ok(cut.references.some((reference) => reference.name === 'DECLARE_BITMAP'));
});

test("lines and columns are tree-sitter's, with CRLF line ends and characters beyond ASCII", async () => {
  const source = [
    '/* é — 😀 */ int first(void)\r',
    '{\r',
    '  return 1;\r',
    '}\r',
    'struct ünïcode_holder { int é; };\r',
    'int second(int a, int b) { return first(); }\r',
    '',
  ].join('\n');
  const { symbols, references } = await extractor.extract('c', source);
  const { language, definitions } = await query();
  const parser = new Parser();
  parser.setLanguage(language);
  const tree = parser.parse(source)!;
  const expected = definitions.matches(tree.rootNode).map((match) => {
    const node = match.captures.find((capture) => capture.name !== 'name')!.node;
    return `${node.startPosition.row + 1}:${node.startPosition.column + 1}-${node.endPosition.row + 1}:${node.endPosition.column + 1}`;
  });
  tree.delete();
  parser.delete();
  assert.equal(symbols.map((symbol) => `${symbol.line}:${symbol.column}-${symbol.endLine}:${symbol.endColumn}`).sort(), expected.sort());
  assert.equal(references.map(callKey), ['call first 6:35']);
});

test('braces that do not balance: no skeleton, the whole file is parsed', async () => {
  const source = '#ifdef A\nint f(int a) {\n#elif B\nint f(long a) {\n#endif\n  return g(a);\n}\n}\nint h(void) { return 0; }\n';
  assert.is(cSkeleton(source), undefined);
  assert.is(cSkeleton('int f(void) { /* never closed\n'), undefined);
  const skeleton = await extractor.extract('c', source);
  const whole = await extractor.extract('c', source, { whole: true });
  assert.equal(skeleton, whole);
});

test('what is cut maps back: every kept character sits at its place in the source', () => {
  const skeleton = cSkeleton(TRICKY)!;
  assert.ok(skeleton.text.length < TRICKY.length * 0.8, `${skeleton.text.length} of ${TRICKY.length} characters parsed`);
  for (let index = 0; index < skeleton.text.length; index++) {
    assert.is(TRICKY[skeleton.toSource(index)], skeleton.text[index], `text[${index}]`);
  }
});

async function query(): Promise<{ language: Language; definitions: Query }> {
  const language = await Language.load(wasmPath(GRAMMARS.c!.pkg, GRAMMARS.c!.file));
  const { TAG_QUERIES } = await import('../../../../src/index/symbols/tags.js');
  const definitions = new Query(
    language,
    TAG_QUERIES.c!.split('\n')
      .filter((line) => line.trim() !== '' && !line.includes('@reference.'))
      .join('\n'),
  );
  return { language, definitions };
}

/** Heads the Linux tree writes with attribute macros tree-sitter cannot know, and what a whole parse makes of them. */
const HEADS = [
  'static int __init setup_thing(void)',
  '{',
  '\treturn register_thing();',
  '}',
  'void __weak arch_hook(void) { }',
  'asmlinkage __visible void __init __no_sanitize_address start_kernel(void)',
  '{',
  '\tsetup_thing();',
  '}',
  'static u64 notrace enter_prog(struct prog *prog,',
  '\t\t\t   struct run_ctx *ctx)',
  '\t__acquires(RCU)',
  '{',
  '\trcu_read_lock();',
  '\treturn 0;',
  '}',
  'static __printf(3, 4) __cold',
  'int emit(int facility, int level, const char *fmt, ...)',
  '{ return vemit(facility, level, fmt); }',
  'static int __init __printf(3, 4)',
  'append_printf(char **bufp, char *end, const char *fmt, ...)',
  '{ return 0; }',
  'static __poll_t poll_thing(struct file *file) { return 0; }',
  'static struct page **alloc_pages_array(unsigned int n) { return NULL; }',
  'typedef int (*parse_fn)(const char *str, void *data);',
  'typedef void (action_fn) (int what);',
  'SYSCALL_DEFINE3(open, const char __user *, filename, int, flags, umode_t, mode)',
  '{',
  '\treturn do_sys_open(AT_FDCWD, filename, flags, mode);',
  '}',
  'static void output(struct event *event)',
  '{',
  '\tstruct aux_event {',
  '\t\tint header;',
  '\t} rec;',
  '\tsend(&rec);',
  '}',
  '',
].join('\n');

test('attribute macros in heads are cut, so every function defined with them is found', async () => {
  const { symbols, references } = await extractor.extract('c', HEADS);
  const found = symbols.map((symbol) => `${symbol.kind} ${symbol.qualifiedName} ${symbol.line}-${symbol.endLine}`);
  assert.equal(found, [
    'function setup_thing 1-4',
    'function arch_hook 5-5',
    'function start_kernel 6-9',
    'function enter_prog 10-16',
    'function emit 17-19',
    'function append_printf 20-22',
    'function poll_thing 23-23',
    'function alloc_pages_array 24-24',
    'type parse_fn 25-25',
    'type action_fn 26-26',
    // As ctags names it: the macro that defines the function.
    'function SYSCALL_DEFINE3 27-30',
    'function output 31-37',
    // A struct defined in a body is a definition too: that body is parsed whole.
    'struct output.aux_event 33-35',
  ]);
  assert.is(symbols.find((symbol) => symbol.name === 'start_kernel')!.signature, 'asmlinkage __visible void __init __no_sanitize_address start_kernel(void)');
  const calls = references.filter((reference) => reference.kind === 'call').map((reference) => reference.name);
  for (const name of ['register_thing', 'setup_thing', 'rcu_read_lock', 'vemit', 'do_sys_open', 'send']) assert.ok(calls.includes(name), name);
  // A whole parse loses some of them (and on the Linux tree about 2% of ctags' definitions): what the cuts are for.
  const whole = (await extractor.extract('c', HEADS, { whole: true })).symbols.map((symbol) => symbol.name);
  assert.not.ok(whole.includes('emit') || whole.includes('SYSCALL_DEFINE3'), whole.join(' '));
});

test('a macro the skeleton leaves tree-sitter to misread as an old-style definition: the reading that finds more wins', async () => {
  // From the Linux tree: with the define's value cut, tree-sitter recovered from `__LOCKF(USED)`
  // by taking everything up to the next body for an old-style definition's parameters.
  const source = [
    '#define __LOCKF(__STATE)\tLOCKF_##__STATE = (1 << LOCK_##__STATE),',
    'enum {',
    '#define LOCKDEP_STATE(__STATE)\t\t\\',
    '\t__LOCKF(USED_IN_##__STATE)\t\\',
    '\t__LOCKF(ENABLED_##__STATE)',
    '#include "lockdep_states.h"',
    '#undef LOCKDEP_STATE',
    '\t__LOCKF(USED)',
    '\t__LOCKF(USED_READ)',
    '};',
    '',
    '#define LOCKF_ENABLED_IRQ_ALL (LOCKF_ENABLED_IRQ | LOCKF_ENABLED_SOFTIRQ)',
    '#define LOCKF_USED_IN_IRQ_ALL (LOCKF_USED_IN_IRQ | LOCKF_USED_IN_SOFTIRQ)',
    '#define MAX_LOCKDEP_ENTRIES\t32768UL',
    'extern unsigned long nr_lock_classes;',
    'static inline unsigned long',
    'lockdep_count_forward_deps(struct lock_class *class)',
    '{',
    '\treturn count(class);',
    '}',
    '',
  ].join('\n');
  const names = (await extractor.extract('c', source)).symbols.map((symbol) => symbol.name);
  for (const name of ['LOCKF_ENABLED_IRQ_ALL', 'LOCKF_USED_IN_IRQ_ALL', 'MAX_LOCKDEP_ENTRIES', 'lockdep_count_forward_deps'])
    assert.ok(names.includes(name), `${name} in ${names.join(' ')}`);
});

test.run();
