// What both bundles share: dist/sextant.mjs (scripts/bundle.mjs) and the single executable's
// CommonJS bundle (scripts/build-binary.mjs).
import { fileURLToPath } from 'node:url';

/**
 * yargs guesses the program's version at start-up, before `.version(VERSION)` replaces it: it
 * walks up from the working directory (the bundle is not under node_modules) listing every
 * directory until it finds a package.json, and parses the user's. A bundle that names its
 * version needs none of that: the walk finds nothing.
 */
const noPackageLookup = {
  name: 'sextant-no-package-lookup',
  setup(build) {
    build.onLoad({ filter: /[\\/]escalade[\\/]sync[\\/]index\.m?js$/ }, () => ({
      contents: 'export default function findUp() { return undefined; }',
      loader: 'js',
    }));
  },
};

/** `string-width`, whoever imports it, is scripts/lazy-string-width.cjs, which loads the real one when first called. */
const lazyStringWidth = {
  name: 'sextant-lazy-string-width',
  setup(build) {
    const shim = fileURLToPath(new URL('./lazy-string-width.cjs', import.meta.url));
    build.onResolve({ filter: /^string-width$/ }, (args) => (args.importer === shim ? undefined : { path: shim }));
  },
};

/** yargs' `assert` (its shim uses strictEqual and notStrictEqual only) is scripts/yargs-assert.mjs. */
const lightAssert = {
  name: 'sextant-yargs-assert',
  setup(build) {
    const shim = fileURLToPath(new URL('./yargs-assert.mjs', import.meta.url));
    build.onResolve({ filter: /^assert$/ }, (args) => (/[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]/.test(args.importer) ? { path: shim } : undefined));
  },
};

export const sharedOptions = {
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [noPackageLookup, lazyStringWidth, lightAssert],
};
