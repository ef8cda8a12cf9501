/**
 * The CLI keeps its word (issue 25): what the README says of a flag, an exit code or an output
 * is what a run does.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './helpers/process.js';
import { projectTree } from './helpers/projects.js';

async function indexed(files: Record<string, string>): Promise<{ root: string; env: Record<string, string> }> {
  const root = projectTree(files);
  const env = { SEXTANT_HOME: mkdtempSync(join(tmpdir(), 'sextant-home-')) };
  const run = await runCli(['index', root], '', env);
  assert.is(run.code, 0, run.stderr);
  return { root, env };
}

test('--lang takes a language in any case, and refuses one it does not know (exit 2, the known ones listed), never "no matches"', async () => {
  const { root, env } = await indexed({ 'get.py': 'from urllib.request import urlopen\n\ndef fetch(url):\n    return urlopen(url)\n', 'get.go': 'package get\n\n// urlopen is mentioned here too\n' });
  const any = await runCli(['search', 'urlopen', root, '--lang', 'Python'], '', env);
  assert.is(any.code, 0, any.stderr);
  assert.match(any.stdout, 'get.py:');
  assert.not.match(any.stdout, 'get.go');
  const typo = await runCli(['search', 'urlopen', root, '--lang', 'pyhton'], '', env);
  assert.is(typo.code, 2);
  assert.match(typo.stderr, 'unknown language "pyhton" for --lang; known: ');
  assert.match(typo.stderr, 'python');
  assert.is(typo.stdout, '');
});

test.run();
