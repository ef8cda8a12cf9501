/**
 * The house's layers, enforced: each room of src/ may import only from the rooms below it. The
 * engine knows nothing of MCP, MCP nothing of the product, the index nothing of protocols or
 * tools, the workspace nothing of tools; only transports touch node:http. Read from the sources
 * themselves (every `from '…'` of every file), so a new import across a layer fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './helpers/process.js';

const SRC = join(ROOT, 'src');

/** Room → the rooms (top-level folders or files of src/, without .ts) it may import from. */
const ALLOWED: Record<string, string[]> = {
  util: [],
  jsonrpc: [],
  mcp: ['jsonrpc', 'errors', 'idle-heap', 'log', 'process-alive'],
  record: ['jsonrpc', 'mcp'],
  conformance: ['jsonrpc', 'mcp'],
  index: ['util', 'log', 'idle-heap', 'process-alive', 'runtime', 'worker-main', 'errors'],
  workspace: ['util', 'index', 'errors', 'log', 'idle-heap', 'wording'],
  // One crossing, by design: the HTTP gate refuses a bad `project_path` before any session exists.
  transports: ['jsonrpc', 'mcp', 'log', 'workspace/detect'],
  tools: ['util', 'index', 'workspace', 'mcp', 'jsonrpc', 'errors', 'wording', 'log'],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** What `file` imports inside src/, as room-relative targets (`mcp/tools`, `errors`), and the node: modules. */
function importsOf(file: string): { inside: string[]; builtins: string[] } {
  const text = readFileSync(file, 'utf8');
  const inside: string[] = [];
  const builtins: string[] = [];
  for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
    if (spec!.startsWith('node:')) builtins.push(spec!);
    else if (spec!.startsWith('.')) inside.push(relative(SRC, join(file, '..', spec!)).replace(/\.js$/, ''));
  }
  return { inside, builtins };
}

test('every room imports only from the rooms below it, and only transports use node:http', () => {
  const problems: string[] = [];
  for (const [room, allowed] of Object.entries(ALLOWED)) {
    for (const file of files(join(SRC, room))) {
      const { inside, builtins } = importsOf(file);
      for (const target of inside) {
        const targetRoom = target.split('/')[0]!;
        if (targetRoom === room) continue;
        if (!allowed.some((ok) => target === ok || targetRoom === ok)) problems.push(`${relative(SRC, file)} imports ${target}`);
      }
      if (room !== 'transports' && builtins.some((name) => name === 'node:http' || name === 'node:https')) problems.push(`${relative(SRC, file)} uses node:http`);
    }
  }
  assert.equal(problems, []);
});

test('the layer check sees a crossing (it is not vacuous)', () => {
  const { inside } = importsOf(join(SRC, 'tools', 'search-code.ts'));
  assert.ok(inside.some((target) => target.startsWith('index/')), 'tools import the index');
  assert.not.ok(ALLOWED.index!.includes('tools'));
});

test.run();
