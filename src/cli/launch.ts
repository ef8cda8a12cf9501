#!/usr/bin/env node
/**
 * The .mjs bundle's entry: turns on Node's compile cache (Node 22.1 and later) before anything
 * else loads, so that every other part of the bundle, loaded from here, is compiled once and then
 * read from the cache. The single executable starts from main.ts (its code cache is in the blob).
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// On a Node whose V8 would abort on the Swift grammar (22 and later), start again with
// WebAssembly on its baseline compiler; an older one sets it before its first grammar.
const restarted = Number(process.versions.node.split('.')[0]) >= 22 && (await (await import('./wasm-baseline.js')).restartOnBaselineWasm());
if (!restarted) await import('./main.js');
