// How far Sextant's symbols agree with Universal Ctags on real code, per language: of ctags'
// definitions (the kinds both model), the share Sextant finds (same name, ctags' line inside
// Sextant's range), and of those the share whose end line and parent agree. ctags gives end lines
// only for some languages and kinds; where it gives none the range column counts what it has.
//
//   npm run build && node bench/symbol-agreement.mjs python=/usr/lib/python3.11 go=/usr/lib/go/src ...
//
// Prints a Markdown table, and with --misses N a sample of N disagreements per language (what to
// turn into a fixture in test/fixtures/symbols).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { detectLanguage } from '../build/src/index/files/languages.js';
import { SymbolExtractor } from '../build/src/index/symbols/extract.js';

/** Sextant's language → ctags' name and the ctags kinds that are definitions Sextant also models. */
const CTAGS = {
  python: { language: 'Python', kinds: ['class', 'function', 'member', 'variable'] },
  go: { language: 'Go', kinds: ['func', 'const', 'type', 'var', 'struct', 'interface'] },
  typescript: { language: 'TypeScript', kinds: ['function', 'class', 'interface', 'enum', 'method', 'namespace'] },
  tsx: { language: 'TypeScript', kinds: ['function', 'class', 'interface', 'enum', 'method', 'namespace'] },
  javascript: { language: 'JavaScript', kinds: ['function', 'class', 'method'] },
  c: { language: 'C', kinds: ['function', 'struct', 'union', 'enum', 'typedef', 'macro'] },
  cpp: { language: 'C++', kinds: ['function', 'class', 'struct', 'namespace', 'enum'] },
  rust: { language: 'Rust', kinds: ['function', 'method', 'struct', 'enum', 'interface', 'module', 'typedef', 'macro', 'field', 'enumerator'] },
  ruby: { language: 'Ruby', kinds: ['class', 'module', 'method', 'singletonMethod'] },
  java: { language: 'Java', kinds: ['class', 'interface', 'enum', 'method', 'annotation', 'enumConstant'] },
  csharp: { language: 'C#', kinds: ['class', 'interface', 'struct', 'enum', 'method', 'namespace'] },
  php: { language: 'PHP', kinds: ['class', 'interface', 'trait', 'function'] },
  lua: { language: 'Lua', kinds: ['function'] },
  kotlin: { language: 'Kotlin', kinds: ['class', 'interface', 'object', 'method'] },
  bash: { language: 'Sh', kinds: ['function'] },
};

/**
 * Where ctags has no parser (Swift, Scala), the reference is the declaration lines themselves:
 * a keyword and the name after it, at the start of a line. It knows no ends or scopes, and it
 * misses declarations split over lines: it checks only that each one is found.
 */
const LINE_REFERENCE = {
  swift:
    /^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|open|fileprivate|final|static|class|override|required|convenience|mutating|nonmutating|@objc|indirect)\s+)*(class|struct|enum|protocol|func|init)\b\s*(?!var\b|let\b)([A-Za-z_]\w*)?/,
  scala: /^\s*(?:(?:private|protected|final|sealed|abstract|implicit|override|case|lazy)\s+)*(class|object|trait|def)\s+([A-Za-z_]\w*)/,
};

const args = process.argv.slice(2);
const missesAt = args.indexOf('--misses');
const showMisses = missesAt >= 0 ? Number(args.splice(missesAt, 2)[1]) : 0;
const limitAt = args.indexOf('--files');
const maxFiles = limitAt >= 0 ? Number(args.splice(limitAt, 2)[1]) : 3000;
if (args.length === 0) {
  console.error('usage: node bench/symbol-agreement.mjs LANG=DIR ... [--files N] [--misses N]');
  process.exit(2);
}

const extractor = await SymbolExtractor.create();
const lastPart = (scope) => (scope ? scope.split(/::|\.|:|\\/).at(-1) : undefined);
const rows = [];

for (const spec of args) {
  const [language, dir] = spec.split('=');
  const ctags = CTAGS[language];
  if ((!ctags && !LINE_REFERENCE[language]) || !dir) throw new Error(`unknown language or missing directory: ${spec}`);
  const files = sourceFiles(dir, language).slice(0, maxFiles);
  const ours = new Map();
  for (const file of files) {
    const { symbols } = await extractor.extract(language, readFileSync(file, 'utf8'), { references: false });
    ours.set(relative(dir, file), symbols);
  }
  if (!ctags) {
    rows.push(lineReferenceRow(language, dir, files, ours, showMisses));
    continue;
  }
  const output = execFileSync(
    'ctags',
    [
      '--output-format=json',
      '--fields=+neKZ',
      `--languages=${ctags.language}`,
      `--language-force=${ctags.language}`,
      '-f',
      '-',
      ...files.map((file) => relative(dir, file)),
    ],
    { cwd: dir, maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let total = 0,
    found = 0,
    withEnd = 0,
    endAgrees = 0,
    parentAgrees = 0,
    parentUnmodelled = 0;
  const misses = [];
  const tags = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((tag) => tag._type === 'tag' && ctags.kinds.includes(tag.kind));
  const ignored = ignoredTags(language, dir, tags);
  for (const tag of tags) {
    if (ignored.has(tag)) continue;
    total++;
    const symbols = ours.get(tag.path) ?? [];
    // ctags writes `operator ()`, tree-sitter `operator()`; a private `#f` is `f` to ctags' JavaScript, `#f` to its TypeScript.
    // A computed name (`[Symbol.iterator]`) is not split at its dots.
    const name = (tag.name.startsWith('[') ? tag.name : (lastPart(tag.name) ?? tag.name)).replace(/^operator /, 'operator').replace(/^#/, '');
    const match = symbols
      .filter((symbol) => symbol.name.replace(/^#/, '') === name && symbol.line <= tag.line && symbol.endLine >= tag.line)
      .sort((a, b) => Math.abs(a.line - tag.line) - Math.abs(b.line - tag.line))[0];
    if (!match) {
      misses.push(`missing ${tag.kind} ${tag.name} ${tag.path}:${tag.line}`);
      continue;
    }
    found++;
    if (tag.end !== undefined) {
      withEnd++;
      if (tag.end === match.endLine) endAgrees++;
      else misses.push(`end ${tag.kind} ${tag.name} ${tag.path}:${tag.line}: ctags ${tag.end}, ours ${match.endLine}`);
    }
    // A Go package is ctags' scope for everything at top level: no parent.
    // Lua's `function M.f` is named `M.f` by ctags, with no scope: M is the parent.
    const prefix = /^(.*)(?:[.:])[^.:]+$/.exec(tag.name)?.[1];
    // An anonymous namespace or struct is ctags' `__anon…` scope: no name Sextant could give.
    const named =
      (tag.scope ?? prefix)
        ?.split('::')
        .filter((part) => !part.startsWith('__anon'))
        .join('::') || undefined;
    const scope = tag.scopeKind === 'package' ? undefined : named;
    // ctags' Rust model gives the items of `impl Trait for X` no scope, and names the scope of
    // `impl [T]` or `impl *const T` by its last identifier (T): where it models no parent there is
    // nothing to agree with, and a type written out is compared by its last identifier as ctags has it.
    if (language === 'rust' && scope === undefined && match.parent !== undefined) {
      parentUnmodelled++;
      continue;
    }
    const ourParent = language === 'rust' ? lastPart(match.parent)?.match(/[A-Za-z_]\w*(?=[^A-Za-z_]*$)/)?.[0] : lastPart(match.parent);
    if (lastPart(scope) === ourParent) parentAgrees++;
    else misses.push(`parent ${tag.kind} ${tag.name} ${tag.path}:${tag.line}: ctags ${scope ?? '-'}, ours ${match.parent ?? '-'}`);
  }
  const pct = (part, whole) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`);
  rows.push(
    `| ${language} | ${dir} | ${files.length} | ${total} | ${pct(found, total)} | ${withEnd} | ${pct(endAgrees, withEnd)} | ${pct(parentAgrees, found - parentUnmodelled)} | ${parentUnmodelled} |`,
  );
  if (showMisses > 0) {
    console.log(`${language}: ${misses.length} disagreements, a sample:`);
    for (const miss of sample(misses, showMisses)) console.log(`  ${miss}`);
  }
}

console.log('| language | tree | files | ctags definitions | found | with a ctags end | end agrees | parent agrees | no ctags parent to compare |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(row);

/** The table row of a language checked against its declaration lines (LINE_REFERENCE). */
function lineReferenceRow(language, dir, files, ours, showMisses) {
  let total = 0;
  let found = 0;
  const misses = [];
  for (const file of files) {
    const path = relative(dir, file);
    const symbols = ours.get(path) ?? [];
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        const match = LINE_REFERENCE[language].exec(text);
        // Swift's `init` has no name after it; a `backquoted` name is left out.
        if (!match || (match[1] !== 'init' && match[2] === undefined)) return;
        const name = match[2] ?? match[1];
        const line = index + 1;
        total++;
        if (symbols.some((symbol) => symbol.name === name && symbol.line <= line && symbol.endLine >= line)) found++;
        else misses.push(`missing ${match[1]} ${name} ${path}:${line}`);
      });
  }
  if (showMisses > 0) {
    console.log(`${language}: ${misses.length} disagreements, a sample:`);
    for (const miss of sample(misses, showMisses)) console.log(`  ${miss}`);
  }
  const pct = (part, whole) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`);
  return `| ${language} | ${dir} (declaration lines, no ctags) | ${files.length} | ${total} | ${pct(found, total)} | 0 | n/a | n/a |`;
}

/**
 * ctags' tags that name nothing a user could look up, left out of the count (the README of the
 * table says which):
 *  - names ctags makes up for what has none: `__anon…` (C, C++), `Anonymous…` (JavaScript);
 *  - JavaScript object literals, which ctags lists as classes (`const o = { … }`, and every
 *    object-valued key inside), and the functions kept in them;
 *  - JavaScript locals: a function ctags finds in a function's scope that is not declared with
 *    `function name` or `class name` (`const onClose = function () {}` inside a function).
 */
function ignoredTags(language, dir, tags) {
  const ignored = new Set();
  for (const tag of tags) if (/^(__anon|Anonymous)/.test(lastPart(tag.name) ?? tag.name)) ignored.add(tag);
  if (language !== 'javascript') return ignored;
  const lines = new Map();
  const lineOf = (tag) => {
    if (!lines.has(tag.path)) lines.set(tag.path, readFileSync(join(dir, tag.path), 'utf8').split('\n'));
    return lines.get(tag.path)[tag.line - 1] ?? '';
  };
  /** Per file, the names of the object literals ctags calls classes. */
  const literals = new Map();
  for (const tag of tags) {
    if (tag.kind !== 'class' || new RegExp(`\\bclass\\s+${escape(tag.name)}\\b`).test(lineOf(tag))) continue;
    ignored.add(tag);
    if (!literals.has(tag.path)) literals.set(tag.path, new Set());
    literals.get(tag.path).add(tag.name);
  }
  for (const tag of tags) {
    if (ignored.has(tag)) continue;
    const scope = lastPart(tag.scope);
    if (scope !== undefined && tag.scopeKind === 'class' && literals.get(tag.path)?.has(scope)) ignored.add(tag);
    else if (
      (tag.scopeKind === 'function' || tag.scopeKind === 'method') &&
      !new RegExp(`\\b(function\\s*\\*?|class)\\s+${escape(tag.name)}\\b`).test(lineOf(tag))
    )
      ignored.add(tag);
  }
  return ignored;
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&');
}

function sourceFiles(dir, language) {
  const out = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(at, entry.name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue; // a dangling link
      }
      if (stat.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.') && entry.name !== 'testdata') walk(path);
      } else if (stat.isFile() && stat.size < 1_000_000 && detectLanguage(entry.name) === language) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** Every k-th entry, so that the sample spreads over the tree. */
function sample(list, count) {
  const step = Math.max(1, Math.floor(list.length / count));
  return list.filter((_, index) => index % step === 0).slice(0, count);
}
