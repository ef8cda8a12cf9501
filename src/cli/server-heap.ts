/**
 * The server's young generation. Node 24, the single executable's base, lets V8's new space grow
 * four times as large as Node 20 does; a long-running server gains little speed from that and keeps the
 * memory. So `serve` in the single executable starts itself again in place (`process.execve`:
 * same pid, same stdio, before anything is read) with `--max-semi-space-size` as Node 20 has it.
 * `index` and the other commands keep the large young generation: they run once and fast.
 * The .mjs runs on whatever `node` the user has, with the flags the user chose.
 */
import { isSingleExecutable } from '../platform/runtime.js';

export const SERVER_SEMI_SPACE_MB = 16;
/** Set in the restarted process (and only there): it does not restart again. */
export const SERVER_HEAP_MARK = 'SEXTANT_SERVER_HEAP';

export function restartWithServerHeap(): void {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (process.env[SERVER_HEAP_MARK] || typeof execve !== 'function' || !isSingleExecutable()) return;
  const nodeOptions = process.env.NODE_OPTIONS ?? '';
  // A size the user chose is theirs.
  if (/--max-semi-space-size/.test(nodeOptions)) return;
  const env = { ...process.env, [SERVER_HEAP_MARK]: '1', NODE_OPTIONS: `${nodeOptions} --max-semi-space-size=${SERVER_SEMI_SPACE_MB}`.trim() };
  // A single executable's argv[1] repeats argv[0]: the arguments proper start at 2.
  execve.call(process, process.execPath, [process.execPath, ...process.argv.slice(2)], env);
}
