/**
 * git runs with none of the replica's own configuration (team/git.ts): an `insteadOf` in the
 * user's, the system's or the environment's configuration must not send a fetch to another
 * remote, and no transport outside the allowed list runs, whatever a URL names.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gitRemote } from '../helpers/git-remote.js';
import { runCli } from '../helpers/process.js';

test("an insteadOf in the user's, the system's or the environment's git configuration does not apply", async () => {
  const real = gitRemote();
  const decoy = gitRemote();
  const realCommit = real.push({ 'real.go': 'package real\n' });
  const decoyCommit = decoy.push({ 'decoy.go': 'package decoy\n' });
  const scratch = mkdtempSync(join(tmpdir(), 'sextant-gitconfig-'));
  const redirect = `[url "${decoy.url}"]\n\tinsteadOf = ${real.url}\n`;
  const config = join(scratch, 'config');
  writeFileSync(config, redirect);
  writeFileSync(join(scratch, '.gitconfig'), redirect);
  const ways: Array<[string, NodeJS.ProcessEnv]> = [
    ['~/.gitconfig', { HOME: scratch }],
    ['GIT_CONFIG_GLOBAL', { GIT_CONFIG_GLOBAL: config }],
    ['GIT_CONFIG_SYSTEM', { GIT_CONFIG_SYSTEM: config }],
    ['GIT_CONFIG_COUNT', { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${decoy.url}.insteadOf`, GIT_CONFIG_VALUE_0: real.url }],
  ];
  try {
    for (const [way, env] of ways) {
      const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
      try {
        const added = await runCli(['project', 'add', 'web', '--git', real.url], '', { ...env, SEXTANT_HOME: home, SEXTANT_DATABASE_URL: '' });
        assert.is(added.code, 0, `${way}: ${added.stderr}`);
        assert.match(added.stdout, realCommit.slice(0, 12), `${way}: the real remote's commit`);
        assert.not.match(added.stdout, decoyCommit.slice(0, 12), way);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    }
  } finally {
    for (const dir of [scratch, dirname(real.url.slice('file://'.length)), dirname(decoy.url.slice('file://'.length))])
      rmSync(dir, { recursive: true, force: true });
  }
});

test('a transport outside the allowed list (ext::, fd::) is refused', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  try {
    for (const url of ['ext::true', 'fd::3']) {
      const added = await runCli(['project', 'add', 'web', '--git', url], '', { SEXTANT_HOME: home, SEXTANT_DATABASE_URL: '' });
      assert.is(added.code, 2, `${url}: ${added.stdout}`);
      assert.match(added.stderr, 'not allowed', url);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
