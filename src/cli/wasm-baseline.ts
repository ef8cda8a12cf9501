/**
 * WebAssembly on V8's baseline compiler (Liftoff), for the grammars (platform/baseline-wasm.ts
 * sets it at run time where that works). The optimizing tier gains
 * little on parsers this large and costs a great deal:
 * - From Node 22, V8's optimizing compiler (Turboshaft) aborts the whole process ("Fatal process
 *   out of memory: Zone") when it takes on the Swift grammar's lexer, one WebAssembly function of
 *   400 KB, as it does once a few Swift files have been parsed. Nothing in the process can catch
 *   an abort, and only `--liftoff-only` on the command line prevents it: v8.setFlagsFromString,
 *   NODE_OPTIONS and a worker's execArgv do not take it there.
 * - On Node 20, TurboFan compiles the grammars' lexers on background threads for seconds, and the
 *   process cannot exit before they finish: `sextant index` of a tree in many languages sat for
 *   seconds after its summary. Node 20 takes the flag at run time, before any grammar loads.
 * The single executable carries the flag in its blob (scripts/build-binary.mjs); the .mjs sets it
 * on Node 20 before its first grammar loads, and from Node 22 starts itself again with it, in
 * place, for the commands that parse (here).
 */
// node:child_process and node:os are loaded only for the rare restart as a child: every
// command's start-up on Node 22 and later, `--version` included, passes through here.
import { BASELINE_WASM_FLAG, FIRST_COMMAND_LINE_ONLY_NODE } from '../platform/baseline-wasm.js';

/** The commands that load grammars (serve is the default command). */
const PARSING_COMMANDS = new Set(['serve', 'index', 'sync', 'outline', 'replay']);

function needsRestart(argv: string[]): boolean {
  const command = argv.find((arg) => !arg.startsWith('-'));
  if (command === undefined) return !argv.some((arg) => ['--help', '-h', '--version'].includes(arg));
  return PARSING_COMMANDS.has(command);
}

/**
 * Sets the flag where the runtime takes it now; else, for a command that parses, starts this
 * process again with it: in place with process.execve (same pid and stdio, nothing read yet),
 * else (a Node 22 before 22.15) as a child whose exit is this process's. Resolves false when
 * nothing was restarted and the caller goes on.
 */
export async function restartOnBaselineWasm(): Promise<boolean> {
  if (process.execArgv.includes(BASELINE_WASM_FLAG)) return false;
  // Before Node 22 the flag is set at run time, before the first grammar (platform/baseline-wasm.ts).
  if (Number(process.versions.node.split('.')[0]) < FIRST_COMMAND_LINE_ONLY_NODE) return false;
  const argv = process.argv.slice(2);
  if (!needsRestart(argv)) return false;
  const args = [...process.execArgv, BASELINE_WASM_FLAG, process.argv[1]!, ...argv];
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve === 'function') execve.call(process, process.execPath, [process.execPath, ...args], process.env);
  const [{ spawn }, { constants }] = await Promise.all([import('node:child_process'), import('node:os')]);
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  // A terminal's Ctrl-C reaches the child with the rest of the group; a signal sent to this pid alone is passed on.
  process.on('SIGINT', () => undefined);
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  const [code, signal] = (await new Promise((resolve) => child.once('exit', (...exit) => resolve(exit)))) as [number | null, NodeJS.Signals | null];
  process.exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
  return true;
}
