/**
 * A deterministic multi-language source tree for symbol tests: the same seed writes the same
 * files on every machine. Names are built from a small vocabulary so that they collide across
 * files and languages (the same name in three places, `getUser` beside `GetUser`, prefixes of
 * each other), and functions call each other across files, which is what lookups, hierarchies
 * and related-symbol queries have to sort out.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const VERBS = ['get', 'set', 'load', 'save', 'parse', 'render', 'find', 'build'];
const NOUNS = ['User', 'Order', 'Index', 'Token', 'Cache', 'Route', 'Store', 'Query'];

/** mulberry32: small, seeded, the same sequence everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Shape {
  className: string;
  methods: string[];
  functions: string[];
  constant: string;
  calls: string[];
}

type Writer = (shape: Shape) => string;

const snake = (name: string): string => name.replace(/[A-Z]/g, (letter, at: number) => `${at > 0 ? '_' : ''}${letter.toLowerCase()}`);

const WRITERS: Record<string, { ext: string; write: Writer }> = {
  typescript: {
    ext: 'ts',
    write: (s) =>
      `import { ${s.calls[0]} } from './shared';\n\nexport const ${s.constant} = 3;\n\nexport class ${s.className} {\n` +
      s.methods.map((m, i) => `  ${m}(value: string): string {\n    return ${s.calls[i % s.calls.length]}(value);\n  }\n`).join('') +
      `}\n\n` +
      s.functions
        .map((f, i) => `export function ${f}(input: number): number {\n  ${s.calls[(i + 1) % s.calls.length]}(input);\n  return input;\n}\n`)
        .join('\n'),
  },
  javascript: {
    ext: 'js',
    write: (s) =>
      `import { ${s.calls[0]} } from './shared.js';\n\nexport class ${s.className} {\n` +
      s.methods.map((m, i) => `  ${m}(value) {\n    return ${s.calls[i % s.calls.length]}(value);\n  }\n`).join('') +
      `}\n\nexport const ${s.functions[0]} = (x) => ${s.calls[1 % s.calls.length]}(x);\n` +
      s.functions
        .slice(1)
        .map((f) => `function ${f}(x) {\n  return x;\n}\n`)
        .join(''),
  },
  python: {
    ext: 'py',
    write: (s) =>
      `import os\nfrom shared import helpers\n\n${s.constant} = 3\n\n\nclass ${s.className}:\n` +
      s.methods.map((m, i) => `    def ${snake(m)}(self, value):\n        return ${snake(s.calls[i % s.calls.length]!)}(value)\n\n`).join('') +
      '\n' +
      s.functions.map((f, i) => `def ${snake(f)}(value):\n    ${snake(s.calls[(i + 1) % s.calls.length]!)}(value)\n    return value\n\n`).join(''),
  },
  go: {
    ext: 'go',
    write: (s) =>
      `package gen\n\nimport "fmt"\n\nconst ${s.constant} = 3\n\ntype ${s.className} struct {\n\tname string\n}\n\n` +
      s.methods
        .map((m, i) => `func (r *${s.className}) ${m[0]!.toUpperCase()}${m.slice(1)}(v string) string {\n\treturn ${s.calls[i % s.calls.length]}(v)\n}\n\n`)
        .join('') +
      s.functions.map((f, i) => `func ${f}(v int) int {\n\tfmt.Println(${s.calls[(i + 1) % s.calls.length]}(v))\n\treturn v\n}\n\n`).join(''),
  },
  rust: {
    ext: 'rs',
    write: (s) =>
      `use crate::shared;\n\npub const ${s.constant}: u32 = 3;\n\npub struct ${s.className} {\n    name: String,\n}\n\nimpl ${s.className} {\n` +
      s.methods.map((m, i) => `    pub fn ${snake(m)}(&self, v: &str) -> String {\n        ${snake(s.calls[i % s.calls.length]!)}(v)\n    }\n`).join('') +
      `}\n\n` +
      s.functions.map((f, i) => `pub fn ${snake(f)}(v: u32) -> u32 {\n    ${snake(s.calls[(i + 1) % s.calls.length]!)}(v);\n    v\n}\n`).join('\n'),
  },
  java: {
    ext: 'java',
    write: (s) =>
      `package gen;\n\nimport java.util.List;\n\npublic class ${s.className} {\n  private int ${s.constant};\n\n` +
      s.methods.map((m, i) => `  public String ${m}(String value) {\n    return ${s.calls[i % s.calls.length]}(value);\n  }\n\n`).join('') +
      s.functions.map((f) => `  static int ${f}(int v) {\n    return v;\n  }\n`).join('\n') +
      `}\n`,
  },
  c: {
    ext: 'c',
    write: (s) =>
      `#include <stdio.h>\n#include "shared.h"\n\n#define ${s.constant.toUpperCase()} 3\n\nstruct ${s.className} {\n  int name;\n};\n\n` +
      s.functions.map((f, i) => `int ${snake(f)}(int v) {\n  ${snake(s.calls[(i + 1) % s.calls.length]!)}(v);\n  return v;\n}\n`).join('\n'),
  },
  ruby: {
    ext: 'rb',
    write: (s) =>
      `module Gen\n  class ${s.className}\n` +
      s.methods.map((m, i) => `    def ${snake(m)}(value)\n      ${snake(s.calls[i % s.calls.length]!)}(value)\n    end\n\n`).join('') +
      `  end\nend\n\n` +
      s.functions.map((f) => `def ${snake(f)}(value)\n  value\nend\n`).join('\n'),
  },
  csharp: {
    ext: 'cs',
    write: (s) =>
      `namespace Gen\n{\n  public class ${s.className}\n  {\n` +
      s.methods
        .map(
          (m, i) => `    public string ${m[0]!.toUpperCase()}${m.slice(1)}(string value)\n    {\n      return ${s.calls[i % s.calls.length]}(value);\n    }\n`,
        )
        .join('\n') +
      `  }\n}\n`,
  },
};

/** Writes the tree under a fresh temporary directory (its real path) and returns it. */
export function generatedTree(options: { seed?: number; files?: number } = {}): string {
  const next = random(options.seed ?? 12);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const name = (): string => `${pick(VERBS)}${pick(NOUNS)}`;
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-generated-')));
  const languages = Object.keys(WRITERS);
  const count = options.files ?? 48;
  for (let n = 0; n < count; n++) {
    const language = languages[n % languages.length]!;
    const { ext, write } = WRITERS[language]!;
    const shape: Shape = {
      className: `${pick(NOUNS)}${pick(['Service', 'Handler', 'Repo', ''])}`,
      methods: Array.from({ length: 1 + Math.floor(next() * 4) }, name),
      functions: Array.from({ length: 1 + Math.floor(next() * 3) }, name),
      constant: `max${pick(NOUNS)}`,
      calls: Array.from({ length: 3 }, name),
    };
    const path = join(root, pick(['core', 'api', 'lib/util', 'lib/io', 'svc']), `${language}_${n}.${ext}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, write(shape));
  }
  return root;
}
