/**
 * The skeletons of languages other than C (brace-skeleton.ts, indent-skeleton.ts, by the rules of
 * skeleton-rules.ts): function bodies are cut, and still every definition a parse of the whole
 * file finds is found, with the same range, kind and parent (nested ones a user would look up
 * included: Python's nested `def` and `class`, Go's methods and local types, a JavaScript class
 * inside a function, an object literal's methods, a Lua local function), and every call in what was cut is found
 * lexically. Literals and comments that hold braces, quotes or `def` do not mislead the cuts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SymbolExtractor } from '../../../../src/index/symbols/extract.js';
import { skeletonOf } from '../../../../src/index/symbols/skeleton/index.js';
import type { ReferenceInfo, SymbolInfo } from '../../../../src/index/symbols/types.js';

const extractor = await SymbolExtractor.create();
const key = (symbol: SymbolInfo): string =>
  `${symbol.kind} ${symbol.qualifiedName} ${symbol.line}:${symbol.column}-${symbol.endLine}:${symbol.endColumn} ${symbol.signature}`;
const callKey = (reference: ReferenceInfo): string => `${reference.kind} ${reference.name} ${reference.line}:${reference.column}`;

/** The skeleton's symbols are the whole parse's, every call of the whole parse is found, and the skeleton did cut. */
async function sameAsWhole(language: string, source: string, label: string): Promise<{ symbols: SymbolInfo[]; cut: number }> {
  const skeleton = skeletonOf(language, source);
  assert.ok(skeleton, `${label}: there is a skeleton`);
  const whole = await extractor.extract(language, source, { whole: true });
  const cut = await extractor.extract(language, source);
  assert.equal(cut.symbols.map(key), whole.symbols.map(key), `${label}: the same definitions`);
  const calls = new Set(cut.references.map(callKey));
  for (const reference of whole.references) assert.ok(calls.has(callKey(reference)), `${label}: ${callKey(reference)} found in what was cut`);
  for (let index = 0; index < skeleton.text.length; index++) {
    if (source[skeleton.toSource(index)] !== skeleton.text[index]) assert.unreachable(`${label}: text[${index}] maps back to its place`);
  }
  return { symbols: whole.symbols, cut: source.length - skeleton.text.length };
}

const names = (symbols: SymbolInfo[]): string[] => symbols.map((symbol) => symbol.qualifiedName);

const PYTHON = `
import re

class Parser:
    """A parser; def fake(): is only text."""

    def parse(self, text):
        """Parse {text}."""
        tokens = self.split(text)
        return [self.token(t) for t in tokens]

    def outer(self):
        def inner(x):
            return helper(x) + len(f"{compute(x)} {{literal}}")
        class Local:
            def method(self):
                return inner(1)
        return Local().method()

    async def fetch(self, url):
        if url:
            result = await self.get(url)
            log(result)
        return None

def guarded(a):
    try:
        return risky(a)
    except ValueError:
        return fallback(a)

def continued(a,
              b):
    total = (a +
             b)
    s = '''def not_a_function():
    pass'''
    return checksum(total, s)

VALUE = 1
`;

test('Python: nested functions and classes stay found, with their ranges; calls in cut bodies, f-strings included', async () => {
  const { symbols, cut } = await sameAsWhole('python', PYTHON, 'python');
  assert.ok(cut > 100, `cut ${cut} characters`);
  for (const name of ['Parser.outer.inner', 'Parser.outer.Local', 'Parser.outer.Local.method', 'Parser.fetch', 'guarded', 'continued', 'VALUE']) {
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
  }
});

const GO = `package server

import "fmt"

// Server serves {requests}.
type Server struct {
	name string
}

type Handler interface {
	ServeHTTP(w Writer, r *Request)
}

func (s *Server) Serve(addr string) error {
	raw := \`{ not a brace }\`
	switch v := value.(type) {
	case int:
		fmt.Println(v, raw)
	}
	return listen(addr, '{')
}

func local() int {
	type point struct{ x, y int }
	p := point{1, 2}
	return compute(p.x)
}

var table = map[string]func() int{
	"a": func() int { return helper(1) },
}
`;

test('Go: methods with receivers, a type declared in a function, and the calls in cut bodies', async () => {
  const { symbols, cut } = await sameAsWhole('go', GO, 'go');
  assert.ok(cut > 50, `cut ${cut} characters`);
  for (const name of ['Server', 'Handler', 'Server.Serve', 'local', 'local.point', 'table'])
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
});

const JAVASCRIPT = `
import { helper } from '../helper.js';

export function makeWidget(options) {
  class Widget {
    render() {
      return draw(this, \`\${format(options.name)} } {\`);
    }
  }
  return new Widget();
}

function plain(a) {
  const pattern = /[{}]+/g;
  const text = 'a { b';
  return a.replace(pattern, '').split(text).map((x) => transform(x))?.filter?.(Boolean);
}

const api = {
  get(id) {
    return fetchOne(id);
  },
  list: function () {
    return fetchAll();
  },
};

function Legacy() {
  this.start = function () {
    return boot();
  };
}

export const arrow = async (x) => {
  await sleep(x);
  return sql\`select \${pick(x)}\`;
};
`;

test('JavaScript: a class inside a function, object-literal methods, this.f = function; regexes and templates with braces', async () => {
  const { symbols, cut } = await sameAsWhole('javascript', JAVASCRIPT, 'javascript');
  assert.ok(cut > 100, `cut ${cut} characters`);
  for (const name of ['makeWidget', 'makeWidget.Widget', 'makeWidget.Widget.render', 'plain', 'api.get', 'Legacy', 'arrow']) {
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
  }
});

const JAVASCRIPT_EXPRESSIONS = `
const kClose = Symbol('close');
module.exports = class WrapHandler {
  [kClose] () {
    return this.#abort(new Error('closed'));
  }

  #abort (reason) {
    return finish(reason);
  }

  static [Symbol.hasInstance] (instance) {
    return instance && instance.wrapped === true;
  }
};

module.exports.matcher = function globParent (pattern, options) {
  return compile(pattern, options);
};
`;

test('JavaScript: a class expression, a named function expression, computed and private methods', async () => {
  const { symbols } = await sameAsWhole('javascript', JAVASCRIPT_EXPRESSIONS, 'javascript expressions');
  for (const name of ['WrapHandler', 'WrapHandler.[kClose]', 'WrapHandler.#abort', 'WrapHandler.[Symbol.hasInstance]', 'module.exports.matcher.globParent']) {
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
  }
});

const RUBY = `
require 'set'

module Shop
  class Cart < Base
    TAX = 0.2
    attr_reader :items

    def initialize(owner, items = [],
                   discount: nil)
      @owner = owner
      @items = items.map { |item| normalize(item) }
      log "created #{describe(owner)}" if verbose?
    end

    def total
      sum = 0
      while sum < limit do
        sum += step(sum) unless frozen?
      end
      sum * (1 + TAX)
    rescue ArgumentError => error
      report error, context: :total
      0
    ensure
      close_session
    end

    def self.load(path, # a comment after a comma
                  format)
      entries = File.readlines(path).reject(&:empty?)
      parsed = %w[a b].map(&:upcase) + entries.select { |e| e =~ /x{2,}/ }
      parsed.each do |entry|
        register entry
      end
      return ?/ if parsed.empty?
      new(parsed)
    end

    def to_s = "Cart(#{@owner})"

    def render
      template = <<~TEXT
        def not_a_method
        end
      TEXT
      format_template(template)
    end

    def builder
      def inner_helper(x)
        compute(x)
      end
      inner_helper(1)
    end
  end
end

=begin
def commented_out
  nothing_here
end
=end
`;

test('Ruby: methods end by their layout; modifiers, blocks, heredocs and a nested def; command calls found', async () => {
  const { symbols, cut } = await sameAsWhole('ruby', RUBY, 'ruby');
  assert.ok(cut > 300, `cut ${cut} characters`);
  for (const name of [
    'Shop',
    'Shop.Cart',
    'Shop.Cart.TAX',
    'Shop.Cart.initialize',
    'Shop.Cart.total',
    'Shop.Cart.load',
    'Shop.Cart.to_s',
    'Shop.Cart.render',
    'Shop.Cart.builder.inner_helper',
  ]) {
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
  }
  assert.not.ok(names(symbols).some((name) => name.includes('not_a_method') || name.includes('commented_out')));
});

const TYPESCRIPT = `
export interface Store<T> {
  new (size: number): Store<T>;
  get(key: string): T | undefined;
}

type Filter = ((node: Node) => number) | { acceptNode(node: Node): number };

export class Cache<T> implements Store<T> {
  private readonly map = new Map<string, T>();

  get(key: string): T | undefined {
    return this.map.get(key) ?? load<T>(key);
  }

  async refresh(keys: string[]): Promise<void> {
    for (const key of keys) this.map.set(key, await fetchValue<T>(key, { retry: true }));
  }
}

export function create<T>(): Cache<T> {
  return new Cache<T>();
}

export enum Mode {
  Fast,
  Safe,
}
`;

test('TypeScript: a type literal after a function type keeps its method; generic calls are found', async () => {
  const { symbols, cut } = await sameAsWhole('typescript', TYPESCRIPT, 'typescript');
  assert.ok(cut > 50, `cut ${cut} characters`);
  for (const name of ['Store', 'Store.new', 'Store.get', 'Filter', 'Cache', 'Cache.get', 'Cache.refresh', 'create', 'Mode']) {
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
  }
});

const RUST = `
pub struct Point<'a> {
    name: &'a str,
}

impl<'a> Point<'a> {
    pub fn new(name: &'a str) -> Self {
        let brace = '{';
        let raw = r#"} not a brace {"#;
        println!("{}", raw);
        Point { name: helper(name, brace) }
    }

    fn local(&self) -> usize {
        fn inner(x: usize) -> usize {
            compute(x)
        }
        inner(self.name.len())
    }
}

pub trait Shape {
    fn area(&self) -> f64 {
        default_area()
    }
}
`;

test('Rust: impl and trait bodies keep their methods; lifetimes, char literals and raw strings with braces; a nested fn', async () => {
  const { symbols, cut } = await sameAsWhole('rust', RUST, 'rust');
  assert.ok(cut > 30, `cut ${cut} characters`);
  for (const name of ['Point', 'Point::new', 'Point::local', 'Point::local::inner', 'Shape', 'Shape::area']) {
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
  }
});

const JAVA = `
package demo;

public class Service extends Base
    implements Runnable {
  private static final String NAME = "}";

  static {
    register(NAME);
  }

  public void run() {
    Runnable task = () -> execute(NAME);
    class Local {
      void help() { assist(); }
    }
    new Local().help();
  }

  public <T> T convert(Object value) throws Exception {
    return cast(value, """
      { text block }
      """);
  }
}
`;

test('Java: a class header over two lines, a static block, a local class, a text block with braces', async () => {
  const { symbols, cut } = await sameAsWhole('java', JAVA, 'java');
  assert.ok(cut > 20, `cut ${cut} characters`);
  for (const name of ['Service', 'Service.run', 'Service.run.Local', 'Service.run.Local.help', 'Service.convert']) {
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
  }
});

const CPP = `
#include <string>

namespace shapes {

class Circle : public Shape {
 public:
  explicit Circle(double r) : radius_(r) {}
  double Area() const override {
    // A comment that ends a sentence.
    return kPi * square(radius_);
  }

 private:
  double radius_;
};

double Circle::Perimeter() const {
  struct Local { int n; };
  Local local{2};
  return scale(local.n) * radius_;
}

}  // namespace shapes

int main() {
  return run("{", '}');
}
`;

test('C++: class bodies keep their methods, a namespace is looked into, a struct defined in a function stays', async () => {
  const { symbols, cut } = await sameAsWhole('cpp', CPP, 'cpp');
  assert.ok(cut > 30, `cut ${cut} characters`);
  for (const name of ['shapes', 'shapes::Circle', 'shapes::Circle::Area', 'shapes::Circle::Perimeter', 'main']) {
    assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
  }
});

const LUA = `
local M = {}

--[[ a block comment with end and function inside ]]
function M.new(name)
  local self = setmetatable({}, M)
  if name then
    self.name = trim(name) .. [[ end ]]
  end
  for i = 1, 3 do
    register(i)
  end
  return self
end

function M:greet()
  local function shout(s)
    return upper(s)
  end
  repeat
    log "once"
  until done()
  return shout(self.name)
end

return M
`;

test('Lua: blocks closed by end and until; a local function inside a method stays; calls without parentheses', async () => {
  const { symbols, cut } = await sameAsWhole('lua', LUA, 'lua');
  assert.ok(cut > 30, `cut ${cut} characters`);
  for (const name of ['M.new', 'M.greet', 'M.greet.shout']) assert.ok(names(symbols).includes(name), `${name} in ${names(symbols).join(', ')}`);
});

test('braces that do not balance: no skeleton, and the whole file is parsed', async () => {
  for (const [language, source] of [
    ['go', 'package a\n\nfunc f() {\n\treturn\n'],
    ['javascript', 'function f() {\n  return 1;\n}\n}\n'],
  ] as const) {
    assert.is(skeletonOf(language, source), undefined, language);
    assert.equal(await extractor.extract(language, source), await extractor.extract(language, source, { whole: true }), language);
  }
});

/** Real code shipped with the dev dependencies (pinned by the lockfile): the skeleton against the whole parse. */
test('on real JavaScript and TypeScript, every definition and call of the whole parse is found', async () => {
  const require = createRequire(import.meta.url);
  const javascript = join(dirname(require.resolve('undici')), 'lib');
  const typescript = join(dirname(require.resolve('typescript/package.json')), 'lib');
  const samples: Array<[string, string]> = [];
  const walk = (dir: string, pattern: RegExp, limit: number): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (samples.length >= limit) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, pattern, limit);
      else if (pattern.test(entry.name)) samples.push([entry.name.endsWith('.ts') ? 'typescript' : 'javascript', path]);
    }
  };
  walk(javascript, /\.js$/, 60);
  walk(typescript, /^lib\.es20\d\d\.[a-z]+\.d\.ts$/, 90);
  assert.ok(samples.length >= 70, `${samples.length} files`);
  let definitions = 0;
  for (const [language, path] of samples) definitions += (await sameAsWhole(language, readFileSync(path, 'utf8'), path)).symbols.length;
  assert.ok(definitions > 1000, `${definitions} definitions compared`);
});

test.run();
