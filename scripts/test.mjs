// `npm test` after the build: uvu over build/test, with TMPDIR and XDG_CACHE_HOME pointed at a
// folder of this run's own, removed when uvu exits, so that a run leaves nothing in the temp
// folder or in ~/.cache/sextant, even where a failed assertion skipped a test's own clean-up.
// The exit status and the output are uvu's.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const run = mkdtempSync(join(tmpdir(), 'sextant-test-run-'));
const temp = join(run, 'tmp');
const cache = join(run, 'cache');
mkdirSync(temp);
mkdirSync(cache);
const uvu = fileURLToPath(new URL('../node_modules/uvu/bin.js', import.meta.url));
// `node scripts/test.mjs NAME...` runs only those test files. Tests sit in folders that mirror
// src/ (test/index/search/…); NAME is a file's path under test/ without `.test.ts`
// (`jsonrpc/peer`), its last part (`peer`), a folder (`index/search/`, every test under it), or a
// pattern of any of those. Flags (`-i PATTERN`, `-b`) go to uvu as they are.
const names = [];
const flags = [];
for (let args = process.argv.slice(2), i = 0; i < args.length; i++) {
  if (!args[i].startsWith('-')) names.push(args[i]);
  else flags.push(args[i], ...(['-i', '--ignore'].includes(args[i]) && i + 1 < args.length ? [args[++i]] : []));
}
const wanted = names.map((name) => (name.endsWith('/') ? `${name}.*` : name));
const pattern = names.length > 0 ? `(^|/)(${wanted.join('|')})\\.test\\.js$` : '\\.test\\.js$';
const child = spawn(process.execPath, [uvu, 'build/test', pattern, ...flags], {
  stdio: ['inherit', 'pipe', 'inherit'],
  env: { ...process.env, TMPDIR: temp, XDG_CACHE_HOME: cache },
});
// uvu's output passes through; its totals are read at the end. A suite whose `before` hook throws
// runs none of its tests and uvu says nothing but "(0 / N)", exiting 0: a test that did not run
// is a failure here.
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString('utf8')).slice(-4096);
});
const totals = () => {
  const plain = tail.replace(/\x1b\[[0-9;]*m/g, '');
  const count = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(plain)?.[1] ?? NaN);
  return { total: count('Total'), passed: count('Passed'), skipped: count('Skipped') };
};
const finish = (code) => {
  rmSync(run, { recursive: true, force: true });
  process.exit(code);
};
child.on('exit', (code, signal) => {
  const { total, passed, skipped } = totals();
  if (code === 0 && Number.isFinite(total) && passed + skipped < total) {
    process.stderr.write(`\n${total - passed - skipped} test(s) did not run: a suite's before hook failed (see "(0 / N)" above)\n`);
    return finish(1);
  }
  finish(code ?? (signal ? 1 : 0));
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
