/**
 * Which language a file is written in, by its name, then its extension, then its shebang.
 * Used for the `lang` search filter and, later, to pick a tree-sitter grammar.
 */
import { basename, extname } from 'node:path';

const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  pyi: 'python',
  pyw: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  scala: 'scala',
  sc: 'scala',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  ipp: 'cpp',
  cs: 'csharp',
  fs: 'fsharp',
  fsx: 'fsharp',
  vb: 'vb',
  rb: 'ruby',
  rake: 'ruby',
  gemspec: 'ruby',
  php: 'php',
  swift: 'swift',
  m: 'objective-c',
  mm: 'objective-cpp',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  fish: 'fish',
  ps1: 'powershell',
  psm1: 'powershell',
  bat: 'batch',
  cmd: 'batch',
  lua: 'lua',
  pl: 'perl',
  pm: 'perl',
  r: 'r',
  jl: 'julia',
  dart: 'dart',
  ex: 'elixir',
  exs: 'elixir',
  erl: 'erlang',
  hrl: 'erlang',
  hs: 'haskell',
  ml: 'ocaml',
  mli: 'ocaml',
  clj: 'clojure',
  cljs: 'clojure',
  cljc: 'clojure',
  elm: 'elm',
  zig: 'zig',
  nim: 'nim',
  v: 'v',
  sol: 'solidity',
  groovy: 'groovy',
  gradle: 'groovy',
  html: 'html',
  htm: 'html',
  vue: 'vue',
  svelte: 'svelte',
  astro: 'astro',
  css: 'css',
  scss: 'scss',
  sass: 'sass',
  less: 'less',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  xml: 'xml',
  ini: 'ini',
  cfg: 'ini',
  md: 'markdown',
  mdx: 'markdown',
  rst: 'restructuredtext',
  tex: 'latex',
  txt: 'text',
  sql: 'sql',
  graphql: 'graphql',
  gql: 'graphql',
  proto: 'protobuf',
  tf: 'hcl',
  hcl: 'hcl',
  nix: 'nix',
  cmake: 'cmake',
  mk: 'make',
  dockerfile: 'dockerfile',
};

const BY_NAME: Record<string, string> = {
  Makefile: 'make',
  makefile: 'make',
  GNUmakefile: 'make',
  Dockerfile: 'dockerfile',
  Containerfile: 'dockerfile',
  'CMakeLists.txt': 'cmake',
  Rakefile: 'ruby',
  Gemfile: 'ruby',
  Jenkinsfile: 'groovy',
  BUILD: 'starlark',
  'BUILD.bazel': 'starlark',
  WORKSPACE: 'starlark',
  '.bashrc': 'bash',
  '.zshrc': 'bash',
  '.profile': 'bash',
};

const BY_INTERPRETER: Record<string, string> = {
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  dash: 'bash',
  ksh: 'bash',
  python: 'python',
  python3: 'python',
  python2: 'python',
  node: 'javascript',
  deno: 'typescript',
  bun: 'javascript',
  ruby: 'ruby',
  perl: 'perl',
  php: 'php',
  lua: 'lua',
  Rscript: 'r',
  fish: 'fish',
};

/** Every language name this module can return. */
export const KNOWN_LANGUAGES = [...new Set([...Object.values(BY_EXTENSION), ...Object.values(BY_NAME), ...Object.values(BY_INTERPRETER)])].sort();

/** `head` is the start of the file, for a shebang; pass it when name and extension say nothing. */
export function detectLanguage(path: string, head?: string): string | undefined {
  const name = basename(path);
  const byName = BY_NAME[name];
  if (byName) return byName;
  const extension = extname(name).slice(1).toLowerCase();
  const byExtension = extension ? BY_EXTENSION[extension] : undefined;
  if (byExtension) return byExtension;
  if (head?.startsWith('#!')) {
    const line = head.slice(2, head.indexOf('\n') < 0 ? undefined : head.indexOf('\n')).trim();
    const parts = line.split(/\s+/);
    const program = basename(
      parts[0] === '/usr/bin/env' || parts[0]?.endsWith('/env') ? (parts.find((p, i) => i > 0 && !p.startsWith('-')) ?? '') : (parts[0] ?? ''),
    );
    return BY_INTERPRETER[program.replace(/[\d.]+$/, '')] ?? BY_INTERPRETER[program];
  }
  return undefined;
}
