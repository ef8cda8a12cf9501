import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  MAX_BATCH_ENTRIES,
  ConnectionClosedError,
  ErrorCodes,
  InvalidParamsError,
  Peer,
  RequestCancelledError,
  RequestTimeoutError,
  type JsonRpcMessage,
} from '../../src/jsonrpc/index.js';
import { expectRpcError } from '../helpers/errors.js';
import { eventually } from '../helpers/wait.js';

interface Wire {
  a: Peer<string>;
  b: Peer<string>;
  /** Messages as they crossed, in order, tagged with direction. */
  log: Array<{ from: 'a' | 'b'; message: unknown; relatedRequestId?: unknown }>;
}

/** Two peers joined by an asynchronous, serializing link. */
function wire(options: { timeoutMs?: number } = {}): Wire {
  const log: Wire['log'] = [];
  const peers: { a?: Peer<string>; b?: Peer<string> } = {};
  const make = (self: 'a' | 'b', other: 'a' | 'b') =>
    new Peer<string>({
      requestTimeoutMs: options.timeoutMs ?? 1_000,
      send: (payload: JsonRpcMessage | JsonRpcMessage[], info) => {
        const copy = JSON.parse(JSON.stringify(payload));
        log.push({ from: self, message: copy, relatedRequestId: info.relatedRequestId });
        setImmediate(() => void peers[other]!.receive(copy, `from-${self}`));
      },
    });
  peers.a = make('a', 'b');
  peers.b = make('b', 'a');
  return { a: peers.a, b: peers.b, log };
}

test('a request gets its result, with the handler seeing params and transport extra', async () => {
  const { a, b } = wire();
  b.onRequest('add', (params, context) => ({ sum: (params.x as number) + (params.y as number), extra: context.extra }));
  assert.equal(await a.request('add', { x: 2, y: 3 }), { sum: 5, extra: 'from-a' });
});

test('ids of outgoing requests are unique integers', async () => {
  const { a, b, log } = wire();
  b.onRequest('echo', () => ({}));
  await Promise.all([a.request('echo'), a.request('echo'), a.request('echo')]);
  const ids = log.filter((e) => e.from === 'a').map((e) => (e.message as { id: number }).id);
  assert.equal(ids, [1, 2, 3]);
});

test('an unknown method is -32601 and reaches the caller as a RemoteError', async () => {
  const { a } = wire();
  const error = await expectRpcError(a.request('nope'), ErrorCodes.MethodNotFound);
  assert.is(error.message, 'Method not found: nope');
});

test('a thrown JsonRpcError keeps its code; any other throw is a bare internal error', async () => {
  const { a, b } = wire();
  b.onRequest('bad-params', () => {
    throw new InvalidParamsError('x must be positive', { x: -1 });
  });
  b.onRequest('crash', () => {
    throw new Error('secret path /etc/passwd');
  });
  const invalid = await expectRpcError(a.request('bad-params'), -32602);
  assert.is(invalid.message, 'x must be positive');
  assert.equal(invalid.data, { x: -1 });
  const crashed = await expectRpcError(a.request('crash'), -32603);
  assert.is(crashed.message, 'Internal error', 'no internals leak into the message');
});

test('a timeout rejects locally and tells the other side with notifications/cancelled', async () => {
  const { a, b, log } = wire({ timeoutMs: 30 });
  let aborted: unknown;
  b.onRequest(
    'slow',
    (_params, context) =>
      new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          aborted = context.signal.reason;
          resolve({ late: true });
        });
      }),
  );
  try {
    await a.request('slow');
    assert.unreachable('should have timed out');
  } catch (error) {
    assert.instance(error, RequestTimeoutError);
    assert.is((error as RequestTimeoutError).code, 'SEXTANT_ERR_REQUEST_TIMEOUT');
  }
  const isCancel = (e: Wire['log'][number]) => (e.message as { method?: string }).method === 'notifications/cancelled';
  await eventually(() => log.some(isCancel) && aborted !== undefined, 'the cancellation reached the handler');
  const cancel = log.find(isCancel);
  assert.equal((cancel?.message as { params: unknown }).params, { requestId: 1, reason: 'Timed out after 30 ms' });
  assert.instance(aborted, RequestCancelledError);
  // The cancelled handler's answer never goes on the wire.
  assert.not.ok(log.some((e) => e.from === 'b' && 'result' in (e.message as object)));
});

test('an abort signal cancels an outgoing request', async () => {
  const { a, b, log } = wire();
  let started = false;
  b.onRequest('slow', (_p, context) => {
    started = true;
    return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve({})));
  });
  const controller = new AbortController();
  const pending = a.request('slow', {}, { signal: controller.signal });
  await eventually(() => started, 'the request reached its handler');
  controller.abort('user pressed stop');
  try {
    await pending;
    assert.unreachable('should have been cancelled');
  } catch (error) {
    assert.instance(error, RequestCancelledError);
  }
  await eventually(() => log.some((e) => (e.message as { method?: string }).method === 'notifications/cancelled'), 'notifications/cancelled went out');
});

test('a late response after a timeout is ignored', async () => {
  const { a, b, log } = wire({ timeoutMs: 20 });
  // Answered only once the caller has given up: the test says when.
  let answerLate!: () => void;
  b.onRequest('slow', () => new Promise((resolve) => (answerLate = () => resolve({ late: true }))));
  b.onNotification('notifications/cancelled', () => {}); // the handler above ignores its signal on purpose
  try {
    await a.request('slow');
    assert.unreachable('should have timed out');
  } catch (error) {
    assert.instance(error, RequestTimeoutError);
  }
  answerLate();
  // The late answer arrives and must not throw or resolve anything.
  await eventually(() => log.some((e) => e.from === 'b' && 'result' in (e.message as object)), 'the late answer was sent');
  await new Promise((resolve) => setImmediate(resolve)); // …and delivered (the link delivers on the next turn)
  b.onRequest('fast', () => ({ ok: 1 }));
  assert.equal(await a.request('fast'), { ok: 1 });
});

test('inbound cancellation aborts the handler and suppresses its response', async () => {
  const { a, b, log } = wire();
  let sawAbort = false;
  b.onRequest(
    'work',
    (_p, context) =>
      new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          sawAbort = true;
          resolve({ partial: true });
        });
      }),
  );
  void a.request('work').catch(() => {});
  await eventually(() => log.some((e) => e.from === 'a'), 'the request went out');
  await new Promise((resolve) => setImmediate(resolve)); // delivered: the link delivers on the next turn
  a.notify('notifications/cancelled', { requestId: 1, reason: 'changed my mind' });
  await eventually(() => sawAbort, 'the handler saw the abort');
  assert.not.ok(
    log.some((e) => e.from === 'b'),
    'nothing may be sent for a cancelled request',
  );
  a.close();
});

test('closing rejects every pending request with a local ConnectionClosedError', async () => {
  const { a, b, log } = wire();
  b.onRequest('never', () => new Promise(() => {}));
  const first = a.request('never');
  const second = a.request('never');
  await eventually(() => log.filter((e) => e.from === 'a').length === 2, 'both requests went out');
  a.close();
  for (const pending of [first, second]) {
    try {
      await pending;
      assert.unreachable('should have been rejected');
    } catch (error) {
      assert.instance(error, ConnectionClosedError);
      assert.is((error as ConnectionClosedError).code, 'SEXTANT_ERR_CONNECTION_CLOSED');
      assert.not.ok('rpcCode' in (error as object), 'a local error has no wire code');
    }
  }
  try {
    await a.request('never');
    assert.unreachable('a closed peer must refuse new requests');
  } catch (error) {
    assert.instance(error, ConnectionClosedError);
  }
  assert.is(log.filter((e) => e.from === 'a').length, 2, 'nothing sent after close');
});

test('progress goes out only with a token, echoes it exactly, must increase, and stops with the request', async () => {
  const { a, b, log } = wire();
  let keep: ((p: number) => boolean) | undefined;
  b.onRequest('job', (_p, context) => {
    context.progress(1, 3, 'one');
    context.progress(2.5, 3);
    assert.throws(() => context.progress(2, 3), /must increase/);
    keep = (p) => context.progress(p);
    return { done: true };
  });
  const updates: unknown[] = [];
  await a.request('job', {}, { onProgress: (update) => updates.push(update) });
  assert.equal(updates, [
    { progress: 1, total: 3, message: 'one' },
    { progress: 2.5, total: 3 },
  ]);
  const lateProgress = keep!(10);
  assert.is(lateProgress, false);
  const progress = log.filter((e) => (e.message as { method?: string }).method === 'notifications/progress');
  assert.is(progress.length, 2);
  assert.is(progress[0]!.relatedRequestId, 1, 'progress is tied to its request for stream routing');
  // A request without a token gets no progress at all.
  let sentWithoutToken: boolean | undefined;
  b.onRequest('quiet', (_p, context) => ({ sent: (sentWithoutToken = context.progress(1)) }));
  await a.request('quiet', { _meta: {} });
  assert.is(sentWithoutToken, false);
  // A string token comes back as the same string.
  b.onRequest('stringy', (_p, context) => ({ sent: context.progress(1) }));
  await a.request('stringy', { _meta: { progressToken: 'tok-7' } });
  const last = log.filter((e) => (e.message as { method?: string }).method === 'notifications/progress').at(-1);
  assert.is((last!.message as { params: { progressToken: unknown } }).params.progressToken, 'tok-7');
});

test('handlers get notify/request bound to the inbound request', async () => {
  const { a, b, log } = wire();
  a.onRequest('roots/list', () => ({ roots: [] }));
  b.onRequest('outer', async (_p, context) => {
    context.notify('notifications/message', { level: 'info', data: 'hi' });
    const roots = await context.request('roots/list');
    return { roots };
  });
  assert.equal(await a.request('outer'), { roots: { roots: [] } });
  const fromB = log.filter((e) => e.from === 'b');
  assert.equal(
    fromB.map((e) => e.relatedRequestId),
    [1, 1, 1],
  );
});

test('a notification never gets a response, even when unknown or its handler throws', async () => {
  const { a, b, log } = wire();
  b.onNotification('boom', () => {
    throw new Error('handler bug');
  });
  a.notify('boom');
  a.notify('unknown/notification', { x: 1 });
  // A request after them is a barrier: messages are handled in order, so once it is answered,
  // anything the notifications caused has been sent.
  b.onRequest('barrier', () => ({}));
  await a.request('barrier');
  assert.equal(
    // All b sent is the barrier's answer (a's only request: id 1).
    log.filter((e) => e.from === 'b' && (e.message as { id?: unknown }).id !== 1),
    [],
  );
});

test('a second request reusing an in-flight id is refused', async () => {
  const out: unknown[] = [];
  const peer = new Peer({ send: (payload) => void out.push(payload) });
  // The first stays in flight until the test lets it go.
  let finish!: () => void;
  peer.onRequest('wait', () => new Promise((resolve) => (finish = () => resolve({}))));
  const first = peer.receive({ jsonrpc: '2.0', id: 'x', method: 'wait' }, undefined);
  await peer.receive({ jsonrpc: '2.0', id: 'x', method: 'wait' }, undefined);
  assert.equal((out[0] as { error: { code: number } }).error.code, -32600);
  finish();
  await first;
  assert.equal(out[1], { jsonrpc: '2.0', id: 'x', result: {} });
});

test('batches are refused unless a policy accepts them; accepted ones answer as one array', async () => {
  const out: unknown[] = [];
  const strict = new Peer({ send: (payload) => void out.push(payload) });
  strict.onRequest('ping', () => ({}));
  await strict.receive([{ jsonrpc: '2.0', id: 1, method: 'ping' }], undefined);
  assert.equal(out.pop(), { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: batches are not supported' } });

  const lenient = new Peer({ send: (payload) => void out.push(payload), batchPolicy: () => undefined });
  lenient.onRequest('ping', () => ({}));
  await lenient.receive(
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/x' }, { jsonrpc: '2.0', id: 2, method: 'nope' }, 7],
    undefined,
  );
  assert.equal(out.pop(), [
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: nope', data: { method: 'nope' } } },
    { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: a message must be a JSON object' } },
  ]);
  await lenient.receive([], undefined);
  assert.equal(out.pop(), { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: empty batch' } });
  // A batch of notifications only gets no answer at all.
  const before = out.length;
  await lenient.receive([{ jsonrpc: '2.0', method: 'notifications/x' }], undefined);
  assert.is(out.length, before);
  // Bounded: past MAX_BATCH_ENTRIES the whole batch is refused, none of it run.
  let runs = 0;
  lenient.onRequest('count', () => ({ runs: ++runs }));
  await lenient.receive(
    Array.from({ length: MAX_BATCH_ENTRIES + 1 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'count' })),
    undefined,
  );
  assert.equal(out.pop(), {
    jsonrpc: '2.0',
    error: {
      code: -32600,
      message: `Invalid request: a batch of ${MAX_BATCH_ENTRIES + 1} messages is over the limit of ${MAX_BATCH_ENTRIES}; send it in smaller batches`,
    },
  });
  assert.is(runs, 0);
  await lenient.receive(
    Array.from({ length: MAX_BATCH_ENTRIES }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'count' })),
    undefined,
  );
  assert.is((out.pop() as unknown[]).length, MAX_BATCH_ENTRIES);
});

test('an invalid response to our request fails it at once instead of timing out', async () => {
  const out: unknown[] = [];
  const peer = new Peer({ send: (payload) => void out.push(payload) });
  const pending = peer.request('roots/list');
  await peer.receive({ jsonrpc: '2.0', id: 1, result: 'not-an-object' }, undefined);
  try {
    await pending;
    assert.unreachable('should have been rejected');
  } catch (error) {
    assert.is((error as { rpcCode: number }).rpcCode, -32600);
  }
  // We tell the other side, without echoing the id of our own request.
  assert.equal(out.at(-1), { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid response: "result" must be an object' } });
});

test('text input: parse errors are answered without an id and the peer keeps working', async () => {
  const out: unknown[] = [];
  const peer = new Peer({ send: (payload) => void out.push(payload) });
  peer.onRequest('ping', () => ({}));
  await peer.receiveText('{"jsonrpc":"2.0",', undefined);
  await peer.receiveText('{"jsonrpc":"2.0","id":5,"method":"ping"}', undefined);
  const [parseError, pong] = out as Array<Record<string, unknown>>;
  assert.is((parseError!.error as { code: number }).code, -32700);
  assert.not.ok('id' in parseError!);
  assert.equal(pong, { jsonrpc: '2.0', id: 5, result: {} });
});

test.run();
