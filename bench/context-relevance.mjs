// How well get_code_context answers plain-language questions: recall@5 and MRR over the questions
// of bench/context-questions.mjs, each asked of a real server over stdio (this build's bundle, or
// another's with --bundle, to compare before and after). The tree must be indexed in --home by
// the same build. Each set's tuned half and held-out half are reported apart; --misses shows the
// tuned half's questions one by one, never the held-out half's.
//
//   npm run build && node bench/context-relevance.mjs python /usr/lib/python3.11 --home H [--bundle B] [--misses]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HELD_OUT, QUESTIONS } from './context-questions.mjs';

const [set, tree] = process.argv.slice(2);
const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const home = option('--home');
const bundle = option('--bundle') ?? fileURLToPath(new URL('../dist/sextant.mjs', import.meta.url));
if (!QUESTIONS[set] || !tree || !home) {
  console.error(`usage: node bench/context-relevance.mjs ${Object.keys(QUESTIONS).join('|')} TREE --home H [--bundle B] [--misses]`);
  process.exit(2);
}

const child = spawn(process.execPath, [bundle, 'serve', '--no-watch'], {
  env: { ...process.env, SEXTANT_PROJECT: tree, SEXTANT_HOME: home },
  stdio: ['pipe', 'pipe', 'inherit'],
});
const waiting = new Map();
let buffer = '';
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  for (let at; (at = buffer.indexOf('\n')) >= 0; buffer = buffer.slice(at + 1)) {
    const message = JSON.parse(buffer.slice(0, at));
    waiting.get(message.id)?.(message);
  }
});
let id = 0;
const request = (method, params) =>
  new Promise((resolve) => {
    waiting.set(++id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });

await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'context-relevance', version: '1' } });
child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);

const answers = (item, expected) =>
  expected.some((answer) => {
    const [name, suffix] = answer.split('@');
    return (item.name === name || item.qualified_name === name) && (!suffix || item.path.endsWith(suffix));
  });
/**
 * Asks each question; recall@5 (an answer among the first five items) and MRR over the first ten
 * (1/rank of the first answer, 0 past ten). `show`: each question's rank and first items, for the
 * tuned half only: a held-out question is never looked at one by one, or it would be tuned on.
 */
async function ask(questions, show) {
  let hits = 0;
  let reciprocal = 0;
  const times = [];
  for (const [question, expected] of questions) {
    const started = performance.now();
    const reply = await request('tools/call', { name: 'get_code_context', arguments: { query: question } });
    times.push(performance.now() - started);
    const items = reply.result?.structuredContent?.context_items ?? [];
    const at = items.slice(0, 10).findIndex((item) => answers(item, expected));
    if (at >= 0 && at < 5) hits++;
    if (at >= 0) reciprocal += 1 / (at + 1);
    if (show)
      console.log(
        `${at >= 0 ? `#${at + 1}` : 'miss'}  ${question}  -> ${
          items
            .slice(0, 5)
            .map((item) => `${item.qualified_name} (${item.path})`)
            .join(', ') || reply.result?.content?.[0]?.text
        }`,
      );
  }
  times.sort((a, b) => a - b);
  return { hits, count: questions.length, mrr: reciprocal / Math.max(1, questions.length), p50: times[Math.floor(times.length / 2)], max: times.at(-1) };
}

const rows = [['tuned', QUESTIONS[set], process.argv.includes('--misses')]];
if (HELD_OUT[set]) rows.push(['held out', HELD_OUT[set], false]);
for (const [half, questions, show] of rows) {
  const { hits, count, mrr, p50, max } = await ask(questions, show);
  console.log(`| ${set} | ${half} | ${tree} | ${hits}/${count} | ${mrr.toFixed(2)} | ${Math.round(p50)} | ${Math.round(max)} |`);
}
child.kill();
