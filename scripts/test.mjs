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
const child = spawn(process.execPath, [uvu, 'build/test', '\\.test\\.js$', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: temp, XDG_CACHE_HOME: cache },
});
const finish = (code) => {
  rmSync(run, { recursive: true, force: true });
  process.exit(code);
};
child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
