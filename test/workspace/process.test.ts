import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveWorkspaceConfig } from '../../src/workspace/config.js';
import { WorkspaceRegistry } from '../../src/workspace/registry.js';
import { BIN, runCli, serverEnv } from '../helpers/process.js';
import { call, projectTree } from '../helpers/projects.js';
import { eventually } from '../helpers/wait.js';

/** The real server over stdio, driven by the SDK client; its stderr kept apart from the protocol. */
async function stdioClient(options: { args?: string[]; env?: Record<string, string>; cwd?: string; roots?: string[] }) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', ...(options.args ?? [])],
    env: serverEnv({ PATH: process.env.PATH ?? '', ...options.env }),
    cwd: options.cwd ?? tmpdir(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const errors: unknown[] = [];
  const client = new Client({ name: 'sextant-stdio-projects', version: '1.0.0' }, { capabilities: options.roots ? { roots: { listChanged: true } } : {} });
  if (options.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: options.roots!.map((path) => ({ uri: pathToFileURL(path).href })) }));
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, stderr: () => stderr, errors };
}

test('stdio: SEXTANT_PROJECT is the project when the client has no roots; roots win over it, and the disagreement goes to stderr only', async () => {
  const env = projectTree({ 'a.ts': 'export const alpha = 1;\n' });
  const rooted = projectTree({ 'b.ts': 'export const beta = 2;\n' });
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const indexed = await runCli(['index', env], '', { SEXTANT_HOME: home });
  assert.is(indexed.code, 0, indexed.stderr);
  const plain = await stdioClient({ env: { SEXTANT_PROJECT: env, SEXTANT_HOME: home } });
  const withRoots = await stdioClient({ env: { SEXTANT_PROJECT: env, SEXTANT_HOME: home }, roots: [rooted] });
  try {
    const found = await call(plain.client, 'search_code', { query: 'alpha' });
    assert.not.ok(found.isError, found.content[0]?.text);
    assert.equal(
      (found.structuredContent!.results as Array<{ path: string; line: number }>).map((r) => `${r.path}:${r.line}`),
      ['a.ts:1'],
    );
    assert.ok(
      found.content.some((block) => block.text.includes('came from the SEXTANT_PROJECT environment variable. A client that supports MCP roots')),
      'hint: the project came from the environment',
    );
    const health = (await call(withRoots.client, 'health_check')).structuredContent!;
    assert.equal(health.session_project, { root: rooted, source: 'roots' });
    await eventually(() => withRoots.stderr().includes(`Project from roots (${rooted}) wins over environment (${env})`), 'the log says roots won');
    assert.equal([...plain.errors, ...withRoots.errors], [], 'stdout carried only protocol messages');
  } finally {
    await plain.client.close();
    await withRoots.client.close();
  }
});

test('stdio: --project-from-cwd takes the working directory the client set; a PWD left from another directory (or relative) is ignored, said in the log; off by default', async () => {
  const { symlinkSync } = await import('node:fs');
  const staleParent = projectTree({});
  const actualCwd = projectTree({});
  const link = join(projectTree({}), 'link-to-cwd');
  symlinkSync(actualCwd, link);
  const cases: Array<[Record<string, string>, string[], string | null, string | undefined]> = [
    // The parent's PWD, inherited by a client that set cwd: not the launch directory.
    [{ PWD: staleParent }, ['--project-from-cwd'], actualCwd, 'is not the working directory'],
    // A shell's logical name for the same directory: agreed with, no note.
    [{ PWD: link }, ['--project-from-cwd'], actualCwd, undefined],
    [{ PWD: '.' }, ['--project-from-cwd'], actualCwd, 'is not absolute and was ignored'],
    [{ PWD: '../x' }, ['--project-from-cwd'], actualCwd, 'is not absolute and was ignored'],
    [{ PWD: staleParent }, [], null, undefined],
  ];
  for (const [env, args, expected, note] of cases) {
    const server = await stdioClient({ env, args, cwd: actualCwd });
    try {
      const health = (await call(server.client, 'health_check')).structuredContent!;
      assert.equal(health.session_project, expected ? { root: expected, source: 'cwd' } : null, JSON.stringify(env));
      if (note) assert.match(server.stderr(), note);
      else assert.not.match(server.stderr(), /PWD/);
    } finally {
      await server.client.close();
    }
  }
});

test('start-up errors: --auto-workspace without --allowed-root, a missing --allowed-root or --workspace, a relative SEXTANT_PROJECT', async () => {
  const cases: Array<[string[], Record<string, string>, string]> = [
    [['serve', '--auto-workspace'], {}, '--auto-workspace needs at least one --allowed-root'],
    [['serve', '--auto-workspace', '--allowed-root', '/no/such/root'], {}, '--allowed-root does not exist or is not a directory: /no/such/root'],
    [['serve', '--workspace', '/no/such/project'], {}, '--workspace does not exist or is not a directory: /no/such/project'],
    [['serve'], { SEXTANT_PROJECT: 'relative/project' }, 'SEXTANT_PROJECT must be an absolute path'],
    [['serve', '--max-workspaces', '0'], {}, '--max-workspaces must be a positive integer'],
  ];
  for (const [args, env, message] of cases) {
    const result = await runCli(args, '', env);
    assert.is(result.code, 2, args.join(' '));
    assert.match(result.stderr, message);
    assert.is(result.stdout, '');
  }
});

test('stdio end to end: index_repo with progress, then every read tool on the fixture repository', async () => {
  const { fixtureCopy } = await import('../helpers/projects.js');
  const root = fixtureCopy('polyglot');
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const server = await stdioClient({ env: { SEXTANT_HOME: home }, args: ['--workspace', root, '--no-watch'] });
  try {
    const progress: string[] = [];
    const indexed = await server.client.callTool({ name: 'index_repo', arguments: {} }, undefined, { onprogress: (p) => void progress.push(p.message ?? '') });
    assert.not.ok(indexed.isError);
    assert.ok(
      progress.some((message) => message.startsWith('Scanning files:')),
      progress.join(' | '),
    );
    const calls: Array<[string, Record<string, unknown>, (result: Record<string, unknown>) => void]> = [
      ['search_code', { query: 'hashPassword' }, (r) => assert.is((r.results as Array<{ path: string }>)[0]!.path, 'src/store/crypto.ts')],
      ['locate_symbol', { name: 'ReportBuilder' }, (r) => assert.is((r.symbols as Array<{ path: string }>)[0]!.path, 'tools/report.py')],
      ['get_file_outline', { path: 'service/main.go' }, (r) => assert.ok((r.symbols as unknown[]).length >= 4)],
      ['get_symbol_hierarchy', { symbol_name: 'insert', direction: 'ancestors' }, (r) => assert.ok((r.ancestors as unknown[]).length >= 1)],
      ['find_related_symbols', { symbol_name: 'Start' }, (r) => assert.ok((r.related as Array<{ relation: string }>).some((x) => x.relation === 'calls'))],
      ['get_code_context', { query: 'ReportBuilder build' }, (r) => assert.ok((r.context_items as unknown[]).length > 0)],
      ['index_status', {}, (r) => assert.is(r.indexing_status, 'ready')],
    ];
    for (const [name, args, check] of calls) {
      const result = await call(server.client, name, args);
      assert.not.ok(result.isError, `${name}: ${result.content[0]?.text}`);
      check(result.structuredContent!);
    }
    assert.equal(
      server.errors.map((error) => String(error)),
      [],
    );
  } finally {
    await server.client.close();
  }
});

test('workspace_limit_exceeded: at the limit with every discovered workspace busy, nothing is let go', () => {
  const [a, b, c] = [projectTree({}), projectTree({}), projectTree({})];
  const busy = new Set<string>();
  const evicted: string[] = [];
  const registry = new WorkspaceRegistry(resolveWorkspaceConfig({ env: {}, maxWorkspaces: 2, autoWorkspace: true, allowedRoots: [tmpdir()] }), {
    isBusy: (root) => busy.has(root),
    onEvict: (root) => evicted.push(root),
  });
  registry.resolveArgument(a!, [], 'launcher', () => true);
  registry.resolveArgument(b!, [], 'launcher', () => true);
  busy.add(a!).add(b!);
  try {
    registry.resolveArgument(c!, [], 'launcher', () => true);
    assert.unreachable('both held workspaces are busy');
  } catch (error) {
    assert.is((error as { code: string }).code, 'workspace_limit_exceeded');
  }
  busy.delete(b!);
  assert.is(registry.resolveArgument(c!, [], 'launcher', () => true).root, c);
  assert.equal(evicted, [b]);
});

test.run();
