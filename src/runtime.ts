/**
 * Where this process's code and data come from. Run as a module (tsc output) or as the `.mjs`
 * bundle, worker threads load a script file and grammars are files. Run as the single
 * executable (scripts/build-binary.mjs), there is no script file: the bundle and every grammar
 * are assets inside the binary (`node:sea`), so workers evaluate the bundle's source and
 * grammars load from memory.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The asset that holds the bundle's own source: what a worker thread of the binary runs. */
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

let bundleSource: string | undefined;

/**
 * A worker thread running `moduleUrl` (the module's own import.meta.url: the module, or the
 * bundle that holds it). In the single executable it runs the embedded bundle's source instead,
 * and the bundle's entry starts the module named by `workerData.role`, as it does from a file.
 */
export function spawnWorker(moduleUrl: string, options: WorkerOptions): Worker {
  // Workers inherit the parent's flags; --input-type (from `node -e`) is refused for a file entry.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  const embedded = singleExecutable();
  if (!embedded) return new Worker(new URL(moduleUrl), { execArgv, ...options });
  bundleSource ??= embedded.getAsset(BUNDLE_ASSET, 'utf8');
  return new Worker(bundleSource, { execArgv, ...options, eval: true });
}
