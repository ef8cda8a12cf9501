// Bundles the server for an installed Node: dist/sextant.mjs, a small entry that turns on Node's
// compile cache (22.1+) and loads the rest, split by esbuild into dist/sextant-HASH.mjs chunks so
// that a command loads only its own parts (`--version` does not parse the server or the index).
// Needs nothing from node_modules.
import { build } from 'esbuild';
import { chmod, copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedOptions } from './bundle-options.mjs';

/** The chunks a build writes (a rebuild removes the last one's first). */
const CHUNK = /^sextant-[A-Z0-9]+\.mjs$/;

await mkdir('dist', { recursive: true });
for (const name of await readdir('dist')) if (CHUNK.test(name)) await rm(`dist/${name}`);
await build({
  ...sharedOptions,
  entryPoints: { sextant: 'src/cli/launch.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  // In dist/ itself: a chunk finds grammars/ beside it, as the entry does.
  chunkNames: 'sextant-[hash]',
  splitting: true,
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  // Some bundled CommonJS (ajv) calls require(); give every ESM chunk a real one.
  banner: { js: "import { createRequire as __sextantCreateRequire } from 'node:module'; const require = __sextantCreateRequire(import.meta.url);" },
});
await chmod('dist/sextant.mjs', 0o755);

// Tree-sitter runtime and grammars travel next to the bundle (src/index/symbols/grammars.ts looks
// in dist/grammars/ first), so dist/ keeps working without node_modules.
const require = createRequire(import.meta.url);
const grammars = await import(pathToFileURL(resolve('build/src/index/symbols/grammars.js')).href);
await mkdir('dist/grammars', { recursive: true });
const wanted = [['web-tree-sitter', 'tree-sitter.wasm'], ...Object.values(grammars.GRAMMARS).map(({ pkg, file }) => [pkg, file])];
for (const [pkg, file] of wanted) await copyFile(require.resolve(`${pkg}/${file}`), `dist/grammars/${file}`);

// The web page (src/web/page): one ES module and its stylesheet, for the browser, beside the
// bundle in dist/web/ and, for the tests that run from build/, in build/web/ (src/web/assets.ts).
const page = await build({
  entryPoints: ['src/web/page/main.ts'],
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  write: false,
  outfile: 'app.js',
  legalComments: 'none',
});
for (const dir of ['dist/web', 'build/web']) {
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}/app.js`, page.outputFiles[0].contents);
  await copyFile('src/web/page/app.css', `${dir}/app.css`);
}
