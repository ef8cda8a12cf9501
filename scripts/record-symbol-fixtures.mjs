// Rewrites test/fixtures/symbols/*.symbols from what the extractor finds now. Run after `npm run
// build`, only when symbols are meant to change, and read the diff line by line before committing:
// the files are the test's expectations (test/index/symbols/symbol-fixtures.test.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectLanguage } from '../build/src/index/files/languages.js';
import { SymbolExtractor } from '../build/src/index/symbols/extract.js';
import { describeSymbols } from '../build/test/helpers/symbols.js';

const DIR = 'test/fixtures/symbols';
const extractor = await SymbolExtractor.create();
for (const name of readdirSync(DIR)
  .filter((file) => !file.endsWith('.symbols'))
  .sort()) {
  const source = readFileSync(join(DIR, name), 'utf8');
  const { symbols } = await extractor.extract(detectLanguage(name, source.slice(0, 200)), source);
  writeFileSync(join(DIR, `${name}.symbols`), `${describeSymbols(symbols).join('\n')}\n`);
}
console.log(`${DIR}: rewritten`);
