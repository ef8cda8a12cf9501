/**
 * One small file per language with the constructs that broke (test/fixtures/symbols): every
 * symbol's range, kind, qualified name and parent, against the `.symbols` file beside it, which
 * was checked by hand and against Universal Ctags' end lines and scopes where ctags has them.
 * After a deliberate change, `node scripts/record-symbol-fixtures.mjs` rewrites them: read the diff.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectLanguage } from '../../../src/index/files/languages.js';
import { SymbolExtractor } from '../../../src/index/symbols/extract.js';
import { GRAMMARS } from '../../../src/index/symbols/grammars.js';
import { ROOT } from '../../helpers/process.js';
import { describeSymbols } from '../../helpers/symbols.js';

const DIR = join(ROOT, 'test/fixtures/symbols');
const extractor = await SymbolExtractor.create();

const sources = readdirSync(DIR)
  .filter((name) => !name.endsWith('.symbols'))
  .sort();

for (const name of sources) {
  test(`${name}: ranges, kinds and parents`, async () => {
    const source = readFileSync(join(DIR, name), 'utf8');
    const language = detectLanguage(name, source.slice(0, 200));
    assert.ok(language && SymbolExtractor.supports(language), `${name} has a language with symbols`);
    const expected = readFileSync(join(DIR, `${name}.symbols`), 'utf8')
      .trimEnd()
      .split('\n');
    assert.equal(describeSymbols((await extractor.extract(language!, source)).symbols), expected);
  });
}

test('every language with symbols has a fixture', () => {
  const covered = new Set(sources.map((name) => detectLanguage(name)));
  // The product's own list of languages with a grammar: a language added there needs a fixture here.
  const missing = Object.keys(GRAMMARS).filter((language) => !covered.has(language));
  assert.equal(missing, []);
});

test('a Lua file parses the same after other files (no scanner state left over)', async () => {
  const source = readFileSync(join(DIR, 'util.lua'), 'utf8');
  const first = describeSymbols((await extractor.extract('lua', source)).symbols);
  await extractor.extract('python', readFileSync(join(DIR, 'module.py'), 'utf8'));
  await extractor.extract('lua', `x = "unterminated\n${source}`);
  assert.equal(describeSymbols((await extractor.extract('lua', source)).symbols), first);
  assert.ok(first.includes('7-9 function M.run < M'), first.join('\n'));
});

test.run();
