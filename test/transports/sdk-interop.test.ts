import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isMessageEntry, parseRecording } from '../../src/record/format.js';
import { stopAll } from '../helpers/process.js';
import { TrafficChecker } from '../helpers/schema.js';
import { sdkConversation } from '../helpers/sdk-session.js';

test.after.each(stopAll);

/** Replays a recording's traffic through the schema checker; returns the problems. */
function checkRecording(file: string): { problems: string[]; checked: number } {
  const checker = new TrafficChecker();
  for (const entry of parseRecording(readFileSync(file, 'utf8')).filter(isMessageEntry)) {
    if (entry.dir === 'in' && entry.message !== undefined) checker.incoming(entry.message);
    if (entry.dir === 'out') checker.outgoing(entry.message);
  }
  return { problems: checker.problems, checked: checker.checked };
}

// Every revision the official SDK client (1.32.2) supports that we support too, plus one we do not.
const cases: Array<[string, string]> = [
  ['2025-11-25', '2025-11-25'],
  ['2025-06-18', '2025-06-18'],
  ['2025-03-26', '2025-03-26'],
  ['2024-11-05', '2024-11-05'],
  ['2024-10-07', '2025-11-25'],
];

for (const [asked, expected] of cases) {
  test(`official SDK client over stdio, asking for ${asked}: tools, ping, logging, progress, cancel`, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sextant-sdk-')), 'traffic.jsonl');
    const result = await sdkConversation(asked, ['--record', file]);
    assert.is(result.health.protocol_version, expected);
    assert.is(result.health.status, 'ready');
    assert.is(result.health.transport, 'stdio');
    assert.is((result.serverVersion as { name: string }).name, 'sextant');
    assert.ok((result.capabilities as Record<string, unknown>).tools);
    assert.ok(result.toolNames.includes('health_check'));
    assert.equal(result.ping, {});
    assert.equal(result.progress, [0, 50, 100]);
    assert.equal(result.toolError, { isError: true, text: 'This tool intentionally returns an error for testing' });
    assert.match(result.cancelled, 'stop');
    const { problems, checked } = checkRecording(file);
    assert.equal(problems, []);
    assert.ok(checked >= 10, `only ${checked} messages checked`);
    // The cancelled call (the last tools/call) got no response.
    const entries = parseRecording(readFileSync(file, 'utf8')).filter(isMessageEntry);
    const calls = entries.filter((e) => e.dir === 'in' && (e.message as { method?: string }).method === 'tools/call');
    const lastCallId = (calls.at(-1)!.message as { id: number }).id;
    assert.not.ok(entries.some((e) => e.dir === 'out' && (e.message as { id?: number }).id === lastCallId));
    assert.ok(entries.some((e) => e.dir === 'in' && (e.message as { method?: string }).method === 'notifications/cancelled'));
  });
}

test.run();
