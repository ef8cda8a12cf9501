/**
 * The README and docs/ keep their word on what they list: every relative link leads to a file that
 * exists, every tool the server serves is in the README's tools table, and every command the CLI
 * has is in its command table.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSextantServer, loadProfile } from '../src/server.js';
import { ProjectService } from '../src/workspace/projects.js';
import { resolveWorkspaceConfig } from '../src/workspace/config.js';
import { ROOT, runCli } from './helpers/process.js';

const README = join(ROOT, 'README.md');
const DOCS = [README, ...readdirSync(join(ROOT, 'docs')).map((name) => join(ROOT, 'docs', name)), join(ROOT, 'bench/RESULTS.md')];

test('every relative link in the README, docs/ and bench/RESULTS.md leads to a file that exists', () => {
  for (const file of DOCS) {
    const text = readFileSync(file, 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
      const path = target!.split('#')[0]!;
      assert.ok(existsSync(join(dirname(file), path)), `${file.slice(ROOT.length)} links to ${target}, which does not exist`);
    }
  }
});

test("every tool the default profile serves is in the README's tools table", async () => {
  const projects = new ProjectService({ config: resolveWorkspaceConfig({ env: {} }) });
  try {
    const server = createSextantServer({ profile: await loadProfile('default'), projects });
    const readme = readFileSync(README, 'utf8');
    for (const name of server.registries.tools.names()) assert.ok(readme.includes(`| \`${name} {`), `the README's tools table lists ${name}`);
  } finally {
    await projects.close();
  }
});

test("every command of `sextant --help` is in the README's command table", async () => {
  const help = await runCli(['--help']);
  const commands = [...help.stdout.matchAll(/^ {2}sextant (\w+)/gm)].map((match) => match[1]!);
  assert.ok(commands.length > 5, help.stdout);
  const readme = readFileSync(README, 'utf8');
  for (const command of commands) assert.ok(readme.includes(`| \`sextant ${command}`), `the README's command table lists ${command}`);
});

test.run();
