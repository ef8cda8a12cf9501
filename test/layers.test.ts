/**
 * The house's plan, checked from the sources themselves (every `from '…'` and `import('…')` of
 * every file): no module takes part in an import circle, the index's rooms stand in their order,
 * and other rooms enter the index only by a room's front door. Which room may import which is
 * the linter's rule (eslint.config.js); a test here proves that rule fires.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './helpers/process.js';
import { lintAs } from './helpers/lint.js';

const SRC = join(ROOT, 'src');

/** The index's rooms, lowest first: each imports only from the rooms before it. */
const INDEX_ROOMS = ['text', 'files', 'store', 'symbols', 'search', 'build', 'watch'];
/**
 * Index modules another room may name by path: the search threads' room loads node:worker_threads,
 * so index/search's front door does not carry it (a one-shot search would then load it); the symbol
 * kinds are a leaf the CLI's entry needs without loading the symbol room.
 */
const BY_PATH = ['index/search/threads/index', 'index/symbols/types'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });
}

interface Import {
  /** src-relative, without extension: `index/search/reader`. */
  target: string;
  /** `import type` / `export type`: erased, so it loads nothing. */
  typeOnly: boolean;
  /** `import('…')`: loaded when called, so it may name the one module it needs. */
  dynamic: boolean;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const [, kind, typeOnly, spec] of text.matchAll(/^(import|export)\s+(type\s+)?(?:[^;]*?from\s+)?'(\.[^']+)'/gm)) {
    if (kind) found.push({ target: relative(SRC, resolve(dirname(file), spec!)).replace(/\.js$/, ''), typeOnly: Boolean(typeOnly), dynamic: false });
  }
  for (const [, spec] of text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g))
    found.push({ target: relative(SRC, resolve(dirname(file), spec!)).replace(/\.js$/, ''), typeOnly: false, dynamic: true });
  return found;
}

const indexRoomOf = (target: string): string | undefined => (target.startsWith('index/') ? target.split('/')[1] : undefined);

test('no module takes part in an import circle, type-only imports included', () => {
  const graph = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const from = relative(SRC, file).replace(/\.ts$/, '');
    graph.set(
      from,
      importsOf(file)
        // A type-only import loads nothing, but a circle of types is still two files that cannot be read apart.
        .filter((edge) => !edge.dynamic)
        .map((edge) => edge.target),
    );
  }
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  assert.equal(circles, []);
  assert.ok(graph.size > 100, 'every module was read');
});

test("the index's rooms import only the rooms below them", () => {
  const problems: string[] = [];
  for (const file of files(join(SRC, 'index'))) {
    const from = indexRoomOf(relative(SRC, file))!;
    assert.ok(INDEX_ROOMS.includes(from), `${relative(SRC, file)} is in a known room`);
    for (const { target } of importsOf(file)) {
      const to = indexRoomOf(target);
      if (to && INDEX_ROOMS.indexOf(to) > INDEX_ROOMS.indexOf(from)) problems.push(`${relative(SRC, file)} imports ${target}`);
    }
  }
  assert.equal(problems, []);
});

test('other rooms enter the index by front doors, or load one module lazily', () => {
  const problems: string[] = [];
  const doors = new Set<string>();
  for (const file of files(SRC).filter((path) => !relative(SRC, path).startsWith('index/'))) {
    for (const { target, dynamic } of importsOf(file)) {
      if (!target.startsWith('index/')) continue;
      if (target === `index/${indexRoomOf(target)}/index`) doors.add(target);
      else if (!dynamic && !BY_PATH.includes(target)) problems.push(`${relative(SRC, file)} imports ${target}`);
    }
  }
  assert.equal(problems, []);
  assert.ok(doors.size >= 5, `the doors in use: ${[...doors].join(', ')}`);
});

test('mcp, and every sub-room with a front door, is entered only by it from outside (mcp/stateless, index/search/first-page, …)', () => {
  // The index's own rooms are the test above's (they import each other by path, lowest first).
  const doors = files(SRC)
    .filter((path) => path.endsWith('/index.ts'))
    .map((path) => relative(SRC, dirname(path)))
    .filter((door) => door === 'mcp' || door.split('/').length >= (door.startsWith('index/') ? 3 : 2));
  assert.ok(doors.includes('mcp') && doors.includes('mcp/stateless') && doors.includes('index/symbols/segment'), doors.join(', '));
  const problems: string[] = [];
  for (const file of files(SRC)) {
    const from = relative(SRC, file);
    for (const { target, dynamic } of importsOf(file)) {
      if (dynamic || BY_PATH.includes(target)) continue;
      for (const door of doors) {
        const inside = (path: string): boolean => path.startsWith(`${door}/`);
        if (inside(target) && !inside(from) && target !== `${door}/index`) problems.push(`${from} imports ${target}, not ${door}/index`);
      }
    }
  }
  assert.equal(problems, []);
});

test('no folder of src/ holds more than 20 files, and no line is over 160 characters', () => {
  const byFolder = new Map<string, number>();
  const long: string[] = [];
  for (const file of files(SRC)) {
    const folder = relative(SRC, dirname(file)) || '.';
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, at) => {
        if (line.length > 160) long.push(`${relative(SRC, file)}:${at + 1}`);
      });
  }
  assert.equal(
    [...byFolder].filter(([, count]) => count > 20),
    [],
  );
  assert.equal(long, []);
});

test('the linter refuses each kind of crossing (its rules are not vacuous)', async () => {
  const refused: Array<[string, string]> = [
    ['src/workspace/probe.ts', '../tools/search-code.js'],
    ['src/workspace/deeper/probe.ts', '../../tools/search-code.js'],
    ['src/jsonrpc/probe.ts', '../mcp/tools.js'],
    ['src/index/store/probe.ts', '../../workspace/projects.js'],
    ['src/index/search/probe.ts', '../build/indexer.js'],
    ['src/tools/probe.ts', '../index/search/reader.js'],
    ['src/transports/probe.ts', '../workspace/projects.js'],
    ['src/mcp/probe.ts', 'node:http'],
    ['src/tools/probe.ts', '../mcp/tools.js'],
    ['src/transports/deeper/probe.ts', '../../mcp/stateless/request.js'],
    ['src/index/search/first-page/probe.ts', '../../../workspace/projects.js'],
    ['src/index/search/first-page/probe.ts', '../../build/indexer.js'],
  ];
  for (const [file, spec] of refused) {
    const report = await lintAs(join(ROOT, file), `import { probe } from '${spec}';\nexport const used = probe;\n`);
    assert.match(report, /no-restricted-imports/, `${file} importing ${spec}`);
  }
  const allowed: Array<[string, string]> = [
    ['src/tools/probe.ts', '../index/search/index.js'],
    ['src/workspace/probe.ts', '../index/search/threads/index.js'],
    ['src/index/search/probe.ts', '../store/store.js'],
    ['src/transports/probe.ts', '../workspace/detect.js'],
    ['src/transports/probe.ts', 'node:http'],
    ['src/tools/probe.ts', '../mcp/index.js'],
    // mcp's own tools.ts and errors.ts, not the rooms of the same names one folder up.
    ['src/mcp/stateless/probe.ts', '../tools.js'],
    ['src/index/search/first-page/probe.ts', '../ranking.js'],
  ];
  for (const [file, spec] of allowed)
    assert.is(await lintAs(join(ROOT, file), `import { probe } from '${spec}';\nexport const used = probe;\n`), '', `${file} importing ${spec}`);
});

test('every name bench/ and scripts/ import from build/src exists there (knip does not follow them)', async () => {
  const scripts = ['bench', 'scripts'].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => /\.(mjs|cjs)$/.test(name))
      .map((name) => join(ROOT, dir, name)),
  );
  const imports =
    /(?:import\s+\{([^}]*)\}\s+from\s+|(?:const|let)\s+\{([^}]*)\}\s*=\s*await\s+import\()\s*(?:here\()?(?:pathToFileURL\(resolve\()?'([^']*build\/src\/[^']+)'/g;
  const missing: string[] = [];
  let checked = 0;
  for (const file of scripts) {
    for (const match of readFileSync(file, 'utf8').matchAll(imports)) {
      const spec = match[3]!;
      const module = (await import(pathToFileURL(spec.startsWith('build/') ? join(ROOT, spec) : resolve(dirname(file), spec)).href)) as Record<string, unknown>;
      for (const name of (match[1] ?? match[2])!.split(',').map((part) => part.trim().split(/\s*:\s*|\s+as\s+/)[0]!)) {
        if (!name) continue;
        checked++;
        if (!(name in module)) missing.push(`${relative(ROOT, file)}: ${name} from ${spec}`);
      }
    }
  }
  assert.equal(missing, []);
  assert.ok(checked > 20, `names checked: ${checked}`);
});

test("docs/README.md's import picture is the one the sources draw (scripts/import-picture.mjs)", () => {
  const drawn = execFileSync(process.execPath, [join(ROOT, 'scripts', 'import-picture.mjs')], { encoding: 'utf8' }).trim();
  const readme = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
  const start = readme.indexOf('| room | imports |');
  assert.ok(start >= 0, 'the README has the table');
  const shown = readme.slice(start, readme.indexOf('\n\n', start)).trim();
  assert.fixture(shown, drawn, 'run node scripts/import-picture.mjs and paste its table into docs/README.md');
});

test('every wire error code is defined once: the engine, MCP and the HTTP gate each keep their own', async () => {
  const { ErrorCodes } = await import('../src/jsonrpc/index.js');
  const { MCP_ERROR_CODES } = await import('../src/mcp/errors.js');
  const { HTTP_ERROR_CODES } = await import('../src/transports/http-errors.js');
  const all = [...Object.values(ErrorCodes), ...Object.values(MCP_ERROR_CODES), ...Object.values(HTTP_ERROR_CODES)];
  assert.is(new Set(all).size, all.length, `a code defined twice: ${all.join(', ')}`);
  assert.ok(Object.values(MCP_ERROR_CODES).includes(-32022) && Object.values(HTTP_ERROR_CODES).includes(-32011));
});

test.run();
