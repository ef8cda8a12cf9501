// Records spec-fixtures/symbol-answers/*.jsonl: every symbol lookup asked of the polyglot fixture
// and of the generated multi-language tree, as the server answers now. Run after `npm run build`.
// The test (test/tools/symbol-answers.test.ts) asks the same questions and must get the same answers:
// re-record only when a tool's output is meant to change, and say why in the commit.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureCopy } from '../build/test/helpers/projects.js';
import { generatedTree } from '../build/test/helpers/generated-tree.js';
import { symbolAnswers } from '../build/test/helpers/symbol-answers.js';

// The trees and index homes the helpers make go in a folder of this run's own, removed at the end (as npm test does).
const scratch = mkdtempSync(join(tmpdir(), 'sextant-record-'));
process.env.TMPDIR = scratch;
mkdirSync('spec-fixtures/symbol-answers', { recursive: true });
for (const [name, root] of [
  ['polyglot', fixtureCopy('polyglot')],
  ['generated', generatedTree({ files: 30 })],
]) {
  const answers = await symbolAnswers(root);
  const out = `spec-fixtures/symbol-answers/${name}.jsonl`;
  writeFileSync(out, answers.map((answer) => JSON.stringify(answer)).join('\n') + '\n');
  console.log(`${out}: ${answers.length} answers`);
}
rmSync(scratch, { recursive: true, force: true });
