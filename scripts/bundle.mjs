// Bundles the whole server into one self-contained file, dist/sextant.mjs, that runs with plain
// `node dist/sextant.mjs` and needs nothing from node_modules.
import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';

const outfile = 'dist/sextant.mjs';
await build({
  entryPoints: ['src/cli/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // Some bundled CommonJS (ajv) calls require(); give the ESM bundle a real one.
  banner: { js: "import { createRequire as __sextantCreateRequire } from 'node:module'; const require = __sextantCreateRequire(import.meta.url);" },
});
await chmod(outfile, 0o755);
