/**
 * The implementations of the coordination seam every contract test runs against: today the files
 * of one home. A second implementation joins this list and must pass the same tests.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCoordination, type Coordination } from '../../src/coordination/index.js';

export interface Implementation {
  name: string;
  /** Two handles on the same shared state, as two processes of one home would have. */
  open(): Promise<[Coordination, Coordination]>;
  /**
   * The source a child process runs to open its own handle on the state of `open()`'s last call,
   * bound to `coordination`; the caller's code follows it.
   */
  childPrelude(): string;
}

let lastHome = '';

export const implementations: Implementation[] = [
  {
    name: 'files',
    open: async () => {
      lastHome = mkdtempSync(join(tmpdir(), 'sextant-home-'));
      return [await openCoordination(lastHome, { env: {} }), await openCoordination(lastHome, { env: {} })];
    },
    childPrelude: () =>
      `const { openCoordination } = await import(${JSON.stringify(new URL('../../src/coordination/index.js', import.meta.url).href)});\n` +
      `const coordination = await openCoordination(${JSON.stringify(lastHome)}, { env: {} });\n`,
  },
];

/** Runs `body` (an async module body using `coordination`) in `count` processes at once; their stdout, one per process. */
export async function inProcesses(implementation: Implementation, count: number, body: (index: number) => string): Promise<string[]> {
  const runs = Array.from({ length: count }, (_, index) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', implementation.childPrelude() + body(index)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    return new Promise<string>((resolve, reject) =>
      child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`child ${index} exited ${code}: ${err}`)))),
    );
  });
  return Promise.all(runs);
}
