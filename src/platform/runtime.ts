/**
 * Where this process's code and data come from. Run as a module (tsc output) or as the `.mjs`
 * bundle, worker threads load a script file and grammars are files. Run as the single
 * executable (scripts/build-binary.mjs), there is no script file: the bundle and every grammar
 * are assets inside the binary (`node:sea`), so workers evaluate the bundle's source and
 * grammars load from memory.
 */
import { foundWorkerFlags, refusedByWorkers, workerFlags } from './worker-flags.js';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { BASELINE_WASM_FLAG } from './baseline-wasm.js';
import { WORKER_ROLE_GLOBAL } from './worker-role.js';

/**
 * The asset that holds the bundle's own source: what a worker thread of the binary runs.
 * @public scripts/build-binary.mjs embeds it (from build/, which knip does not follow).
 */
export const BUNDLE_ASSET = 'sextant.cjs';

type Sea = typeof import('node:sea');

let sea: Sea | null | undefined;

/** node:sea when this process is a single executable, else null (and on a Node without it). */
function singleExecutable(): Sea | null {
  if (sea !== undefined) return sea;
  const module = process.getBuiltinModule?.('node:sea') as Sea | undefined;
  sea = module?.isSea?.() ? module : null;
  return sea;
}

/** Whether this process is the single executable (`dist/sextant`). */
export function isSingleExecutable(): boolean {
  return singleExecutable() !== null;
}

/** An asset's bytes (not copied), when this is the single executable and it holds one by that name. */
export function embeddedAsset(key: string): Uint8Array | undefined {
  const embedded = singleExecutable();
  if (!embedded) return undefined;
  try {
    return new Uint8Array(embedded.getRawAsset(key) as ArrayBuffer);
  } catch {
    return undefined; // no asset by that name
  }
}

/**
 * The V8 code cache of the bundle as a worker compiles it (built by the base Node at build time).
 * @public scripts/build-binary.mjs makes it.
 */
export const WORKER_CACHE_ASSET = 'sextant.cjs.worker-cache';

/**
 * How a worker thread of the binary wraps the bundle: the shape of a CommonJS module, compiled with its code cache.
 * @public scripts/build-binary.mjs compiles the same shape for the cache.
 */
export function workerScriptSource(bundle: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${bundle}\n})`;
}

/**
 * What a worker thread of the binary evaluates: the bundle from the binary's assets, compiled
 * with the code cache made at build time, so that a worker starts without compiling it (a cache
 * V8 rejects, after a flag change say, only costs the compile).
 */
const WORKER_BOOT = `
globalThis[${JSON.stringify(WORKER_ROLE_GLOBAL)}] = String(require('node:worker_threads').workerData?.role ?? '');
const { getAsset } = require('node:sea');
const { Script } = require('node:vm');
let cachedData;
try { cachedData = new Uint8Array(getAsset(${JSON.stringify(WORKER_CACHE_ASSET)})); } catch {}
const wrap = ${workerScriptSource.toString()};
const script = new Script(wrap(getAsset(${JSON.stringify(BUNDLE_ASSET)}, 'utf8')), { filename: ${JSON.stringify(BUNDLE_ASSET)}, cachedData });
script.runInThisContext()(module.exports, require, module, __filename, __dirname);
`;

/**
 * A worker thread running `moduleUrl` (the module's own import.meta.url: the module, or the
 * bundle that holds it). In the single executable it runs the embedded bundle instead
 * (WORKER_BOOT), and the bundle's entry starts the module named by `workerData.role`, as it does
 * from a file.
 */
export function spawnWorker(moduleUrl: string, options: WorkerOptions): Worker {
  // Workers inherit the parent's flags, less those a worker refuses (worker-flags.ts): the two
  // known ones at once, any other (a V8 flag given to node) found when a worker is refused.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type') && flag !== BASELINE_WASM_FLAG);
  const start = (flags: string[]): Worker =>
    singleExecutable() ? new Worker(WORKER_BOOT, { execArgv: flags, ...options, eval: true }) : new Worker(new URL(moduleUrl), { execArgv: flags, ...options });
  // After one refusal, every later worker starts with the flags found then.
  const found = foundWorkerFlags();
  if (found) return start(found);
  try {
    return start(execArgv);
  } catch (error) {
    if (!refusedByWorkers(error)) throw error;
    return start(workerFlags(execArgv));
  }
}
