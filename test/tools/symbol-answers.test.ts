import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generatedTree } from '../helpers/generated-tree.js';
import { ROOT } from '../helpers/process.js';
import { fixtureCopy } from '../helpers/projects.js';
import { symbolAnswers, type Answer } from '../helpers/symbol-answers.js';

/**
 * The symbol store answers every lookup exactly as the answers recorded in
 * spec-fixtures/symbol-answers (by scripts/record-symbol-answers.mjs, before the binary store
 * replaced the JSON one): outlines, locate_symbol, hierarchies, related symbols, code context.
 */
function recorded(name: string): Answer[] {
  return readFileSync(join(ROOT, 'spec-fixtures/symbol-answers', `${name}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Answer);
}

function sameAnswers(name: string, answers: Answer[]): void {
  const expected = recorded(name);
  assert.is(answers.length, expected.length, `${name}: as many questions as recorded`);
  for (const [n, answer] of answers.entries()) {
    const question = `${name} #${n}: ${answer.tool} ${JSON.stringify(answer.args)}`;
    assert.equal({ tool: answer.tool, args: answer.args }, { tool: expected[n]!.tool, args: expected[n]!.args }, question);
    assert.equal(answer.result, expected[n]!.result, question);
  }
}

test('the polyglot fixture: every symbol lookup answers as recorded', async () => {
  sameAnswers('polyglot', await symbolAnswers(fixtureCopy('polyglot')));
});

test('a generated multi-language tree: every symbol lookup answers as recorded', async () => {
  sameAnswers('generated', await symbolAnswers(generatedTree({ files: 30 })));
});

test.run();
