/**
 * Every grammar on every runtime Sextant ships for: the bundle under Node 20 and Node 24, and the
 * single executable (Node 24 inside). From Node 22, V8's optimizing compiler aborts the process on
 * the Swift grammar's lexer (cli/wasm-baseline.ts); each runtime here indexes, outlines and serves
 * all seventeen languages, Swift parsed often enough to be optimized, and exits as it should.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GRAMMARS } from '../../src/index/symbols/grammars.js';
import { binaryAlone, node24, type Alone } from '../helpers/binary.js';
import { BIN, ROOT } from '../helpers/process.js';
import { spawn } from 'node:child_process';

const FIXTURES = join(ROOT, 'test/fixtures/symbols');
/** Swift files beyond the fixture: enough parsing for V8 to optimize the lexer, which is what aborted. */
const MORE_SWIFT = 120;

interface Runtime {
  name: string;
  /** The command and the arguments before Sextant's own. */
  command: string;
  prefix: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * How long a command may take to exit after its last line. Exiting takes milliseconds; what this
 * bounds is the seconds Node 20 spent finishing TurboFan's compilations of the grammars before it
 * could exit (cli/wasm-baseline.ts), with room for a busy machine.
 */
const EXIT_AFTER_OUTPUT_MS = 1_500;

function run(
  runtime: Runtime,
  args: string[],
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; exitAfterOutputMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(runtime.command, [...runtime.prefix, ...args], { env: runtime.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let lastOutput = performance.now();
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (lastOutput = performance.now())));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr, exitAfterOutputMs: performance.now() - lastOutput }));
  });
}

/** One file of each language (the symbol fixtures), and more Swift. */
function languages(): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-languages-'));
  const files = readdirSync(FIXTURES).filter((name) => !name.endsWith('.symbols'));
  for (const name of files) cpSync(join(FIXTURES, name), join(dir, name));
  const swift = files.find((name) => name.endsWith('.swift'))!;
  for (let i = 0; i < MORE_SWIFT; i++) cpSync(join(dir, swift), join(dir, `more_${i}.swift`));
  writeFileSync(join(dir, 'README.md'), 'seventeen languages\n');
  return { dir, files };
}

let alone: Alone | undefined;

async function checkRuntime(runtime: Runtime): Promise<void> {
  const { dir, files } = languages();
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const env = { ...runtime.env, SEXTANT_HOME: home };
  const withHome = { ...runtime, env };
  try {
    assert.is(files.length, Object.keys(GRAMMARS).length, 'a fixture for every grammar');
    const parsed = files.length + MORE_SWIFT;
    const index = await run(withHome, ['index', dir]);
    assert.is(index.code, 0, `${runtime.name} index: ${index.signal ?? ''} ${index.stderr.slice(-600)}`);
    assert.match(index.stdout, `in ${parsed} files (${parsed} parsed`, runtime.name);
    assert.match(index.stdout, /^Done in [\d.]+ s$/m);
    assert.ok(
      index.exitAfterOutputMs < EXIT_AFTER_OUTPUT_MS,
      `${runtime.name} exits when done, not ${Math.round(index.exitAfterOutputMs)} ms after its summary`,
    );
    for (const file of files) {
      const outline = await run(withHome, ['outline', join(dir, file)]);
      assert.is(outline.code, 0, `${runtime.name} outline ${file}: ${outline.signal ?? ''} ${outline.stderr.slice(-400)}`);
      assert.ok(outline.stdout.trim().length > 0, `${runtime.name}: ${file} has symbols`);
    }
    // Served over stdio: an index built by the server, then every file's outline through MCP.
    const client = new Client({ name: 'sextant-grammars-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: runtime.command,
        args: [...runtime.prefix, 'serve', '--no-watch'],
        env: { ...env, SEXTANT_PROJECT: dir } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      const indexed = (await client.callTool({ name: 'index_repo', arguments: { force: true } })) as { isError?: boolean; content: Array<{ text: string }> };
      assert.not.ok(indexed.isError, `${runtime.name} index_repo: ${indexed.content[0]?.text}`);
      for (const file of files) {
        const outline = (await client.callTool({ name: 'get_file_outline', arguments: { path: file } })) as {
          isError?: boolean;
          structuredContent?: { symbols?: unknown[] };
        };
        assert.not.ok(outline.isError, `${runtime.name} get_file_outline ${file}`);
        assert.ok((outline.structuredContent?.symbols ?? []).length > 0, `${runtime.name}: ${file} outlined over MCP`);
      }
    } finally {
      await client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

test.after(() => {
  if (alone) rmSync(alone.dir, { recursive: true, force: true });
});

test('the bundle under Node 20 indexes, outlines and serves every language', async () => {
  await checkRuntime({ name: `node ${process.version}`, command: process.execPath, prefix: [BIN], env: { ...process.env } });
});

test('the bundle under Node 24 indexes, outlines and serves every language, Swift included', async () => {
  await checkRuntime({ name: 'node 24', command: node24(), prefix: [BIN], env: { ...process.env } });
});

test('the single executable indexes, outlines and serves every language, Swift included', async () => {
  alone = binaryAlone();
  await checkRuntime({ name: 'the binary', command: alone.binary, prefix: [], env: alone.env });
});

test.run();
