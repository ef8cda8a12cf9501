import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SymbolExtractor } from '../../../src/index/symbols/extract.js';
import type { SymbolInfo } from '../../../src/index/symbols/types.js';

const extractor = await SymbolExtractor.create();

/** `kind name [parent]` per symbol, in source order: compact enough to read in a failure. */
async function summary(language: string, source: string): Promise<string[]> {
  const { symbols } = await extractor.extract(language, source);
  return symbols.map((s: SymbolInfo) => `${s.kind} ${s.qualifiedName}`);
}

const CASES: Array<[string, string, string[]]> = [
  [
    'typescript',
    `export interface Shape { area(): number }
export type Id = string;
export enum Color { Red, Green }
export class Circle implements Shape {
  constructor(private r: number) {}
  area(): number { return Math.PI * this.r ** 2; }
}
export function makeCircle(r: number): Circle { return new Circle(r); }
export const double = (x: number) => x * 2;
let counter = 0;
namespace Geometry { export function unit() {} }
`,
    [
      'interface Shape',
      'method Shape.area',
      'type Id',
      'enum Color',
      'class Circle',
      'method Circle.constructor',
      'method Circle.area',
      'function makeCircle',
      'function double',
      'variable counter',
      'module Geometry',
      'function Geometry.unit',
    ],
  ],
  ['tsx', `export function App() { return <div>{render()}</div>; }\nclass Box extends Base { draw() {} }\n`, ['function App', 'class Box', 'method Box.draw']],
  [
    'javascript',
    `function a() { const local = 1; return local; }\nclass B { m() {} }\nconst c = function () {};\nvar d = 1;\nconst E = 2;\n`,
    ['function a', 'class B', 'method B.m', 'function c', 'variable d', 'constant E'],
  ],
  [
    'python',
    `import os\nfrom typing import List\nLIMIT = 10\nclass Stack:\n    def push(self, x):\n        self.items.append(x)\ndef helper():\n    return Stack()\n`,
    ['variable LIMIT', 'class Stack', 'method Stack.push', 'function helper'],
  ],
  [
    'go',
    `package main\nimport "fmt"\nconst Max = 3\nvar count int\ntype Point struct { X int }\ntype Shape interface { Area() float64 }\ntype ID string\nfunc (p Point) Norm() int { return p.X }\nfunc main() { fmt.Println(Max) }\n`,
    ['constant Max', 'variable count', 'struct Point', 'interface Shape', 'type ID', 'method Point.Norm', 'function main'],
  ],
  [
    'rust',
    `mod geo {\n  pub struct Point { x: i32 }\n  impl Point {\n    pub fn new() -> Self { Point { x: 0 } }\n  }\n  pub trait Shape { fn area(&self) -> f64; }\n  pub enum Kind { A, B }\n  const MAX: u32 = 3;\n}\nfn main() { geo::Point::new(); }\n`,
    [
      'module geo',
      'struct geo::Point',
      'field geo::Point::x',
      'method geo::Point::new',
      'interface geo::Shape',
      'method geo::Shape::area',
      'enum geo::Kind',
      'enum_member geo::Kind::A',
      'enum_member geo::Kind::B',
      'constant geo::MAX',
      'function main',
    ],
  ],
  [
    'java',
    `package p;\nimport java.util.List;\npublic class Greeter {\n  private int count;\n  public Greeter() {}\n  public String greet(String n) { return format(n); }\n}\ninterface Named { String name(); }\nenum Mode { ON, OFF }\n`,
    [
      'class Greeter',
      'variable Greeter.count',
      'method Greeter.Greeter',
      'method Greeter.greet',
      'interface Named',
      'method Named.name',
      'enum Mode',
      'enum_member Mode.ON',
      'enum_member Mode.OFF',
    ],
  ],
  [
    'c',
    `#include <stdio.h>\n#define MAX 10\nstruct point { int x; };\ntypedef int id_t;\nenum color { RED };\nstatic int add(int a, int b) { return a + b; }\nchar *name(void) { return 0; }\nint main(void) { return add(1, 2); }\n`,
    ['constant MAX', 'struct point', 'type id_t', 'enum color', 'function add', 'function name', 'function main'],
  ],
  [
    'cpp',
    `namespace geo {\nclass Point {\n public:\n  int norm() { return 0; }\n};\n}\nint geo_main() { return 0; }\n`,
    ['module geo', 'class geo::Point', 'method geo::Point::norm', 'function geo_main'],
  ],
  [
    'csharp',
    `namespace App {\n  public class Greeter {\n    public string Greet(string n) { return n; }\n  }\n  interface INamed {}\n  enum Mode { On }\n}\n`,
    ['module App', 'class App.Greeter', 'method App.Greeter.Greet', 'interface App.INamed', 'enum App.Mode', 'enum_member App.Mode.On'],
  ],
  [
    'ruby',
    `module Tools\n  class Hammer\n    def hit(nail)\n      nail.sink\n    end\n  end\nend\ndef helper; end\n`,
    ['module Tools', 'class Tools.Hammer', 'method Tools.Hammer.hit', 'function helper'],
  ],
  [
    'php',
    `<?php\ninterface Shape {}\nclass Circle implements Shape {\n  public function area() { return 1; }\n}\nfunction make() { return new Circle(); }\n`,
    ['interface Shape', 'class Circle', 'method Circle.area', 'function make'],
  ],
  [
    'kotlin',
    'package a\nclass Point(val x: Int) { fun norm(): Int = x }\nobject Registry { fun add() {} }\nfun main() { println(1) }\nval LIMIT = 3\ninterface Shape { fun area(): Int }\nenum class Color { RED }\n',
    [
      'class Point',
      'method Point.norm',
      'class Registry',
      'method Registry.add',
      'function main',
      'variable LIMIT',
      'interface Shape',
      'method Shape.area',
      'enum Color',
    ],
  ],
  [
    'swift',
    'class Point { func norm() -> Int { return 0 } }\nprotocol Shape { func area() -> Int }\nfunc main() { print(1) }\nstruct Size { var w: Int }\nenum Color { case red }\nextension Point { func scaled() -> Int { return 2 } }\n',
    ['class Point', 'method Point.norm', 'interface Shape', 'method Shape.area', 'function main', 'class Size', 'enum Color', 'method Point.scaled'],
  ],
  [
    'scala',
    'object Main { def run(): Unit = println(1) }\nclass Point(x: Int) { def norm: Int = x }\ntrait Shape\n',
    ['class Main', 'method Main.run', 'class Point', 'method Point.norm', 'interface Shape'],
  ],
  ['lua', 'local function helper() end\nfunction M.run(x) return helper() end\nfunction top() end\n', ['function helper', 'function M.run', 'function top']],
  ['bash', `#!/bin/bash\nbuild() {\n  make all\n}\nfunction clean { rm -rf out; }\nbuild\n`, ['function build', 'function clean']],
];

for (const [language, source, expected] of CASES) {
  test(`${language}: kinds, names and qualified names`, async () => {
    assert.equal(await summary(language, source), expected);
  });
}

test('ranges, parents and signatures are exact for a TypeScript method', async () => {
  const { symbols, references } = await extractor.extract('typescript', 'class A {\n  run(x: number): void {\n    go(x);\n  }\n}\n');
  const method = symbols.find((s) => s.name === 'run')!;
  assert.equal(
    { line: method.line, column: method.column, endLine: method.endLine, parent: method.parent, signature: method.signature },
    { line: 2, column: 3, endLine: 4, parent: 'A', signature: 'run(x: number): void' },
  );
  assert.equal(references, [{ name: 'go', kind: 'call', line: 3, column: 5 }]);
});

test('every supported language is listed and every tag query compiles', async () => {
  const languages = [
    'typescript',
    'tsx',
    'javascript',
    'python',
    'go',
    'rust',
    'java',
    'c',
    'cpp',
    'csharp',
    'ruby',
    'php',
    'kotlin',
    'swift',
    'scala',
    'bash',
    'lua',
  ];
  assert.is(languages.length, 17);
  for (const language of languages) {
    assert.ok(SymbolExtractor.supports(language), language);
  }
  assert.not.ok(SymbolExtractor.supports('cobol'));
});

test.run();
