/**
 * The controller's policy on a failure: a catalog it cannot read is a failed turn, retried with
 * the lease kept, never "no git projects" (which would give the lease up over a passing error).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openCoordination } from '../../src/coordination/index.js';
import type { Logger } from '../../src/platform/log.js';
import { Controller } from '../../src/team/controller.js';
import { gitRemote } from '../helpers/git-remote.js';
import { eventually } from '../helpers/wait.js';

test('a catalog that cannot be read keeps the controller leading: the turn fails and is tried again', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const remote = gitRemote();
  remote.push({ 'main.go': 'package main\n' });
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warning: (message) => void warnings.push(message), error() {} };
  const coordination = await openCoordination(home);
  const controller = new Controller({ coordination, pollMs: 50, holder: 'test', logger });
  try {
    await coordination.catalog.add({ name: 'web', location: { git: remote.url, ref: 'main' } });
    controller.start();
    await eventually(() => controller.leading, 'the controller takes the lease');
    // An entry someone edited into nonsense: reading the catalog fails from now on.
    writeFileSync(join(home, 'catalog', 'zzz.json'), 'not json');
    await eventually(() => !controller.leading || warnings.some((line) => line.startsWith('Controller turn failed')), 'a turn after the damage');
    assert.ok(controller.leading, 'the lease is kept');
  } finally {
    await controller.close();
    await coordination.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(dirname(remote.url.slice('file://'.length)), { recursive: true, force: true });
  }
});

test.run();
