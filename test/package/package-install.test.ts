/**
 * The npm package as anyone would get it: `npm pack` on the tree, the tarball installed into an
 * empty folder, and the installed command run from there (`--version`, index, search, and an MCP
 * exchange over stdio). The build the tarball ships is the one `npm test` just made (prepack
 * builds it for a real `npm pack`; it is not run twice here).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('the package: a name of its own, a prepack that builds, a LICENSE; its tarball installs and runs from an empty folder', async () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    bin: Record<string, string>;
    scripts: Record<string, string>;
    files: string[];
    license: string;
    dependencies?: Record<string, string>;
  };
  assert.is(manifest.name, 'sextant-mcp', '"sextant" on npm is an unrelated package');
  assert.match(manifest.scripts.prepack ?? '', 'npm run build', 'npm pack builds what it ships');
  assert.equal(Object.keys(manifest.bin).sort(), ['sextant', 'sextant-mcp']);
  assert.ok(existsSync(join(ROOT, 'LICENSE')) && manifest.files.includes('LICENSE'));
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), `${manifest.license} License`);

  const work = mkdtempSync(join(tmpdir(), 'sextant-package-'));
  try {
    const packed = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, maxBuffer: 1 << 26 });
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const shipped = info!.files.map((file) => file.path);
    for (const path of ['LICENSE', 'README.md', 'package.json', 'dist/sextant.mjs']) assert.ok(shipped.includes(path), `${path} is shipped`);
    assert.ok(
      shipped.some((path) => /^dist\/sextant-\w+\.mjs$/.test(path)),
      'the chunks are shipped',
    );
    assert.ok(
      shipped.some((path) => path.startsWith('dist/grammars/')),
      'the grammars are shipped',
    );
    assert.not.ok(shipped.some((path) => path.startsWith('src/') || path.startsWith('test/') || path.startsWith('build/')));

    const app = join(work, 'app');
    mkdirSync(app);
    // Everything the bundle runs is inside it: the package depends on nothing, so an install adds
    // one package and runs no install script (none of its own, none of a dependency's).
    assert.equal(Object.keys(manifest.dependencies ?? {}), [], 'no runtime dependency');
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) assert.is(manifest.scripts[hook], undefined, `no ${hook} script`);
    const installed = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--foreground-scripts', join(work, info!.filename)], {
      cwd: app,
      maxBuffer: 1 << 26,
    });
    assert.match(installed.stdout, /added 1 package\b/, installed.stdout);
    assert.equal(
      readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.')),
      ['sextant-mcp'],
      'only the package itself',
    );
    const bin = join(app, 'node_modules', '.bin', 'sextant');
    const env = { ...process.env, SEXTANT_HOME: join(work, 'home') };
    const version = await run(bin, ['--version'], { env });
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    assert.is(
      (await run(npm, ['exec', '--no', '--', 'sextant-mcp', '--version'], { cwd: app, env })).stdout,
      version.stdout,
      'npx sextant-mcp runs the same command',
    );
    const project = projectTree({ 'src/app.ts': 'export function installedOk(): number {\n  return 1;\n}\n' });
    await run(bin, ['index', project], { env });
    assert.match((await run(bin, ['search', 'installedOk', project], { env })).stdout, 'src/app.ts:1:17: export function installedOk()');
    // An MCP exchange over stdio: initialize, then a tool call on the project.
    const served = await new Promise<string>((resolve, reject) => {
      const child = execFile(bin, ['serve'], { env: { ...env, SEXTANT_PROJECT: project }, timeout: 60_000 }, (error, stdout) =>
        error && !stdout ? reject(error) : resolve(stdout),
      );
      const lines = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'installed', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'locate_symbol', arguments: { name: 'installedOk' } } },
      ];
      child.stdin!.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    });
    const answers = served
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: number; result?: { structuredContent?: { symbols?: Array<{ path: string }> } } });
    assert.is(answers.find((answer) => answer.id === 1)?.result !== undefined, true);
    assert.equal(
      answers.find((answer) => answer.id === 2)?.result?.structuredContent?.symbols?.map((symbol) => symbol.path),
      ['src/app.ts'],
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test.run();
