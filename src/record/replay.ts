/**
 * Re-runs a recording against a fresh server: each recorded session gets a new MCP session, its
 * incoming messages are sent in order, and what the server sends back is compared, message by
 * message, with what was recorded.
 */
import { LAUNCHER } from '../caller.js';
import type { JsonRpcMessage } from '../jsonrpc/index.js';
import type { McpServer, MessageContext } from '../mcp/index.js';
import { compareMessages } from './compare.js';
import { isMessageEntry, type MessageEntry, type RecordEntry } from './format.js';

/** How long to wait for the answers one recorded message produced before moving on. */
const DEFAULT_STEP_TIMEOUT_MS = 2_000;
/** How long to listen for messages the recording says should not come. */
const DEFAULT_SETTLE_MS = 25;

export interface ReplayOptions {
  stepTimeoutMs?: number;
  settleMs?: number;
  /** Sees every message the replayed server sends, e.g. to validate it against the schema. */
  onOutgoing?(message: unknown, session: ReplayedSession): void;
}

interface ReplayedSession {
  session: string;
  protocolVersion: string | undefined;
  sent: number;
  received: unknown[];
  differences: string[];
}

export interface ReplayReport {
  sessions: ReplayedSession[];
  ok: boolean;
}

export async function replay(entries: RecordEntry[], createServer: () => McpServer, options: ReplayOptions = {}): Promise<ReplayReport> {
  const bySession = new Map<string, MessageEntry[]>();
  for (const entry of entries.filter(isMessageEntry)) {
    const list = bySession.get(entry.session) ?? [];
    list.push(entry);
    bySession.set(entry.session, list);
  }
  const sessions: ReplayedSession[] = [];
  for (const [session, list] of bySession) sessions.push(await replaySession(session, list, createServer(), options));
  return { sessions, ok: sessions.every((s) => s.differences.length === 0) };
}

async function replaySession(name: string, entries: MessageEntry[], server: McpServer, options: ReplayOptions): Promise<ReplayedSession> {
  const stepTimeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const report: ReplayedSession = { session: name, protocolVersion: undefined, sent: 0, received: [], differences: [] };
  let wake: (() => void) | undefined;
  const session = server.createSession({
    send: (payload: JsonRpcMessage | JsonRpcMessage[]) => {
      report.received.push(payload);
      report.protocolVersion = session.protocolVersion;
      options.onOutgoing?.(payload, report);
      wake?.();
    },
  });
  const extra: MessageContext = { transport: 'replay', sessionId: name, caller: LAUNCHER };
  const expected = entries.filter((entry) => entry.dir === 'out');

  let expectedSoFar = entries.findIndex((entry) => entry.dir === 'in');
  if (expectedSoFar < 0) expectedSoFar = entries.length;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.dir !== 'in') continue;
    let next = entries.findIndex((candidate, at) => at > index && candidate.dir === 'in');
    if (next < 0) next = entries.length;
    expectedSoFar += next - index - 1;
    report.sent++;
    const handling = entry.raw !== undefined ? session.receiveText(entry.raw, extra) : session.receive(entry.message, extra);
    void handling.catch((error: unknown) => report.differences.push(`replay failed: ${String(error)}`));
    await waitFor(
      () => report.received.length >= expectedSoFar,
      stepTimeoutMs,
      (resolve) => (wake = resolve),
    );
    if (next - index - 1 === 0) await delay(settleMs);
  }
  await delay(settleMs);
  session.close();

  const count = Math.max(expected.length, report.received.length);
  for (let i = 0; i < count; i++) {
    const want = expected[i]?.message;
    const got = report.received[i];
    if (i >= expected.length) report.differences.push(`message ${i + 1}: unexpected ${JSON.stringify(got)}`);
    else if (i >= report.received.length) report.differences.push(`message ${i + 1}: missing ${JSON.stringify(want)}`);
    else report.differences.push(...compareMessages(want, got, `message ${i + 1}`));
  }
  return report;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function waitFor(done: () => boolean, timeoutMs: number, onWake: (resolve: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    if (done()) return resolve();
    const timer = setTimeout(resolve, timeoutMs);
    onWake(() => {
      if (!done()) return;
      clearTimeout(timer);
      resolve();
    });
  });
}
