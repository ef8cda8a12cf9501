/**
 * Where each language's tree-sitter grammar comes from: `@vscode/tree-sitter-wasm` where it has
 * one, `tree-sitter-wasms` for the rest (Lua: its own grammar package). In the single-file bundle the `.wasm` files sit in
 * `grammars/` next to it (scripts/bundle.mjs copies them); from source they resolve through the
 * packages; in the single executable they are assets named by their file names.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { embeddedAsset } from '../../platform/runtime.js';

const VSCODE = '@vscode/tree-sitter-wasm/wasm';
const WASMS = 'tree-sitter-wasms/out';

/** Language (as languages.ts names it) → grammar file. */
export const GRAMMARS: Record<string, { pkg: string; file: string }> = {
  typescript: { pkg: VSCODE, file: 'tree-sitter-typescript.wasm' },
  tsx: { pkg: VSCODE, file: 'tree-sitter-tsx.wasm' },
  javascript: { pkg: VSCODE, file: 'tree-sitter-javascript.wasm' },
  python: { pkg: VSCODE, file: 'tree-sitter-python.wasm' },
  go: { pkg: VSCODE, file: 'tree-sitter-go.wasm' },
  rust: { pkg: VSCODE, file: 'tree-sitter-rust.wasm' },
  java: { pkg: VSCODE, file: 'tree-sitter-java.wasm' },
  c: { pkg: WASMS, file: 'tree-sitter-c.wasm' },
  cpp: { pkg: VSCODE, file: 'tree-sitter-cpp.wasm' },
  csharp: { pkg: VSCODE, file: 'tree-sitter-c-sharp.wasm' },
  ruby: { pkg: VSCODE, file: 'tree-sitter-ruby.wasm' },
  php: { pkg: VSCODE, file: 'tree-sitter-php.wasm' },
  bash: { pkg: VSCODE, file: 'tree-sitter-bash.wasm' },
  kotlin: { pkg: WASMS, file: 'tree-sitter-kotlin.wasm' },
  swift: { pkg: WASMS, file: 'tree-sitter-swift.wasm' },
  scala: { pkg: WASMS, file: 'tree-sitter-scala.wasm' },
  // tree-sitter-wasms' Lua scanner keeps state across parses: every file after the first was misparsed.
  lua: { pkg: '@tree-sitter-grammars/tree-sitter-lua', file: 'tree-sitter-lua.wasm' },
};

const require = createRequire(import.meta.url);

/** Path of a grammar's `.wasm` file, or of web-tree-sitter's own runtime (`tree-sitter.wasm`). */
export function wasmPath(pkg: string, file: string): string {
  const beside = fileURLToPath(new URL(`./grammars/${file}`, import.meta.url));
  if (existsSync(beside)) return beside;
  return require.resolve(`${pkg}/${file}`);
}

/** A grammar (or the runtime) to load: its bytes when the single executable embeds it, else its path. */
export function wasmSource(pkg: string, file: string): Uint8Array | string {
  return embeddedAsset(file) ?? wasmPath(pkg, file);
}
