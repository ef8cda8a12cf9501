// Bundles the whole server into one self-contained file, dist/sextant.mjs, that runs with plain
// `node dist/sextant.mjs` and needs nothing from node_modules.
import { build } from 'esbuild';
import { chmod, copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedOptions } from './bundle-options.mjs';

const outfile = 'dist/sextant.mjs';
await build({
  ...sharedOptions,
  outfile,
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  // Some bundled CommonJS (ajv) calls require(); give the ESM bundle a real one.
  banner: { js: "import { createRequire as __sextantCreateRequire } from 'node:module'; const require = __sextantCreateRequire(import.meta.url);" },
});
await chmod(outfile, 0o755);

// Tree-sitter runtime and grammars travel next to the bundle (src/index/symbols/grammars.ts looks
// in dist/grammars/ first), so dist/ keeps working without node_modules.
const require = createRequire(import.meta.url);
const grammars = await import(pathToFileURL(resolve('build/src/index/symbols/grammars.js')).href);
await mkdir('dist/grammars', { recursive: true });
const wanted = [['web-tree-sitter', 'tree-sitter.wasm'], ...Object.values(grammars.GRAMMARS).map(({ pkg, file }) => [pkg, file])];
for (const [pkg, file] of wanted) await copyFile(require.resolve(`${pkg}/${file}`), `dist/grammars/${file}`);
