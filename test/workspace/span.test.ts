/**
 * The entries of `projects` as globs: matched without backtracking (a caller's glob runs on the
 * server's main thread), bounded in wildcards, and for a remote caller against names alone, so
 * that a glob cannot probe the paths of the server's folders.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_WILDCARDS, nameGlob } from '../../src/workspace/span.js';

const folder = { root: '/home/alice/src/payments', label: '/home/alice/src/payments' };
const named = { root: '/srv/checkouts/web', label: 'web', named: { name: 'web', root: '/srv/checkouts/web', allowed: [], state: 'ready' as const } };

test('a glob matches names, and folders by their last part, case-insensitively', () => {
  assert.ok(nameGlob('pay*', true)!(folder));
  assert.ok(nameGlob('W?B', true)!(named));
  assert.ok(nameGlob('*', true)!(folder) && nameGlob('*', true)!(named));
  assert.not.ok(nameGlob('/home/*', true)!(folder), 'a folder answers to its last part, not its path');
  assert.not.ok(nameGlob('web?', true)!(named));
});

test('a remote caller’s glob matches names alone', () => {
  assert.not.ok(nameGlob('pay*', false)!(folder));
  assert.not.ok(nameGlob('*', false)!(folder));
  assert.ok(nameGlob('*', false)!(named));
});

test('a glob built to backtrack is answered at once, and one with too many wildcards is refused', () => {
  const long = { root: `/x/${'a'.repeat(4_000)}`, label: `/x/${'a'.repeat(4_000)}` };
  assert.not.ok(nameGlob(`${'*a'.repeat(MAX_WILDCARDS / 2)}!`, true)!(long));
  assert.ok(nameGlob(`${'*a'.repeat(MAX_WILDCARDS / 2)}`, true)!(long));
  assert.is(nameGlob('*'.repeat(MAX_WILDCARDS + 1), true), undefined);
});

test.run();
