/**
 * WebAssembly on V8's baseline compiler (Liftoff) for the grammars: cli/wasm-baseline.ts says
 * why. This half sets the flag at run time, where the runtime takes it there (Node before 22),
 * just before the first WebAssembly compile. Not at launch: a V8 flag changed after start-up
 * changes V8's flag hash, and every one of Node's own modules loaded after it is then compiled
 * without its code cache, which made every command start slower, `--version` included.
 */
import { setFlagsFromString } from 'node:v8';

/** @public scripts/build-binary.mjs puts it in the binary's blob. */
export const BASELINE_WASM_FLAG = '--liftoff-only';

/** The first Node whose V8 takes the flag only from the command line (there cli/wasm-baseline.ts restarts). */
export const FIRST_COMMAND_LINE_ONLY_NODE = 22;

let done = false;

/** Called before WebAssembly is first compiled; once per process. */
export function useBaselineWasm(): void {
  if (done) return;
  done = true;
  if (process.execArgv.includes(BASELINE_WASM_FLAG)) return;
  if (Number(process.versions.node.split('.')[0]) < FIRST_COMMAND_LINE_ONLY_NODE) setFlagsFromString(BASELINE_WASM_FLAG);
}
