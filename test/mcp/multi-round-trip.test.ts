import { createHmac } from 'node:crypto';
/**
 * Multi round-trip requests (2026-07-28): input_required results, retries with inputResponses and
 * a sealed requestState, refusals of state that does not verify, and rounds split between two
 * server processes that share SEXTANT_HOME.
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { InvalidParamsError } from '../../src/jsonrpc/index.js';
import { FileStateKeys, KeyRing } from '../../src/coordination/index.js';
import { RequestStateSealer } from '../../src/mcp/request-state.js';
import { JSON_AND_SSE, startTestHttp } from '../helpers/http.js';
import { stopAll } from '../helpers/process.js';
import { serveProcess } from '../helpers/serve-http.js';
import { checkOutgoing } from '../helpers/schema.js';

test.after.each(() => stopAll());

const MODERN = '2026-07-28';
const ALL_INPUT = { sampling: {}, elicitation: {}, roots: {} };
let nextId = 1;

/** A modern tools/call (or prompts/get) over HTTP; the answer is checked against the 2026 schema. */
async function call(url: string, name: string, extra: Record<string, unknown> = {}, capabilities: Record<string, unknown> = ALL_INPUT, method = 'tools/call') {
  const params = {
    ...(method === 'resources/read' ? {} : { name }),
    ...(method === 'tools/call' ? { arguments: {} } : {}),
    ...extra,
    _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities },
  };
  const response = await request(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, 'mcp-protocol-version': MODERN, 'mcp-method': method, 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const answer = (await response.body.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
  assert.equal(
    checkOutgoing(answer, MODERN as never, () => method),
    [],
    JSON.stringify(answer).slice(0, 300),
  );
  return { status: response.statusCode, ...answer };
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

test('the sealed request state opens only for this server key, this request, this principal, before it expires', async () => {
  let now = 1_000_000;
  const sealer = new RequestStateSealer(KeyRing.of(Buffer.alloc(32, 7)), { ttlMs: 60_000, now: () => now });
  const params = { name: 'tool', arguments: { a: 1, b: [2, 3] } };
  const state = sealer.seal('tools/call', params, { round: 1 }, 'alice');
  assert.equal(
    await sealer.open(state, 'tools/call', { arguments: { b: [2, 3], a: 1 }, name: 'tool', inputResponses: {} }, 'alice'),
    { round: 1 },
    'argument order and retry fields do not matter',
  );
  const refused = async (fn: () => Promise<unknown>, why: string) => {
    try {
      await fn();
      assert.unreachable(why);
    } catch (error) {
      assert.instance(error, InvalidParamsError);
      assert.match((error as Error).message, why);
    }
  };
  await refused(() => sealer.open(`${state}x`, 'tools/call', params, 'alice'), 'integrity');
  const [keyId, body, mac] = state.split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), s: { round: 99 } })).toString('base64url');
  await refused(() => sealer.open(`${keyId}.${forged}.${mac}`, 'tools/call', params, 'alice'), 'integrity');
  await refused(() => new RequestStateSealer(KeyRing.of(Buffer.alloc(32, 8))).open(state, 'tools/call', params, 'alice'), 'does not accept');
  await refused(() => sealer.open(`${KeyRing.of(Buffer.alloc(32, 8)).current.id}.${body}.${mac}`, 'tools/call', params, 'alice'), 'does not accept');
  await refused(() => sealer.open(state, 'tools/call', { ...params, arguments: { a: 2 } }, 'alice'), 'another request');
  await refused(() => sealer.open(state, 'prompts/get', params, 'alice'), 'another request');
  await refused(() => sealer.open(state, 'tools/call', params, 'mallory'), 'another principal');
  await refused(() => sealer.open(42, 'tools/call', params, 'alice'), 'must be the string');
  now += 60_001;
  await refused(() => sealer.open(state, 'tools/call', params, 'alice'), 'expired');
});

test('a key rotated in: states sealed with the previous key open while it is still accepted, and are refused once it is not', async () => {
  const old = KeyRing.of(Buffer.alloc(32, 1));
  const params = { name: 'tool', arguments: {} };
  const state = new RequestStateSealer(old).seal('tools/call', params, { round: 1 });
  const rotated = new KeyRing({ id: 'next', secret: Buffer.alloc(32, 2) }, [old.current]);
  const sealer = new RequestStateSealer(rotated);
  assert.equal(await sealer.open(state, 'tools/call', params), { round: 1 }, 'the previous key still opens its states');
  assert.is(sealer.seal('tools/call', params, {}).split('.')[0], 'next', 'new states are sealed with the new key');
  try {
    await new RequestStateSealer(new KeyRing(rotated.current)).open(state, 'tools/call', params);
    assert.unreachable('rotated out');
  } catch (error) {
    assert.match((error as Error).message, /does not accept \(unknown, or rotated out\)/);
  }
  // A state from before key ids (`body.mac`) was sealed with the key that is current.
  const [, body] = state.split('.');
  const legacyMac = createHmac('sha256', old.current.secret).update(body!).digest('base64url');
  assert.equal(await new RequestStateSealer(old).open(`${body}.${legacyMac}`, 'tools/call', params), { round: 1 });
});

test('a key rotated in on another replica: a state naming it makes this one read its keys again, and it seals with the new key after', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const keys = new FileStateKeys(home, {});
  let now = 1_000_000;
  let reads = 0;
  const reload = () => {
    reads++;
    return keys.ring();
  };
  const here = new RequestStateSealer(await keys.ring(), { now: () => now, reload });
  const params = { name: 'tool', arguments: {} };
  const before = here.seal('tools/call', params, { round: 1 });
  const rotated = await keys.rotate();
  // Another replica, started after the rotation, seals with the new key.
  const elsewhere = new RequestStateSealer(await keys.ring()).seal('tools/call', params, { round: 2 });
  assert.is(elsewhere.split('.')[0], rotated.id);
  now += 2_000;
  assert.equal(await here.open(elsewhere, 'tools/call', params), { round: 2 }, 'the unknown id is read for, once');
  assert.is(reads, 1);
  assert.equal(await here.open(before, 'tools/call', params), { round: 1 }, 'a state of the previous key stays valid');
  assert.is(here.seal('tools/call', params, {}).split('.')[0], rotated.id, 'sealing moved to the new key');
  try {
    await here.open(`unknown-key.${elsewhere.split('.')[1]}.${elsewhere.split('.')[2]}`, 'tools/call', params);
    assert.unreachable('an id no store has');
  } catch (error) {
    assert.match((error as Error).message, /does not accept/);
  }
  assert.is(reads, 1, 'a miss right after a miss read does not read again');
  try {
    await new FileStateKeys(home, { SEXTANT_STATE_KEY: 'x' }).rotate();
    assert.unreachable('the environment decides the key');
  } catch (error) {
    assert.match((error as Error).message, /SEXTANT_STATE_KEY is set/);
  }
});

test('the state key comes from SEXTANT_STATE_KEY, else from one state.key file (mode 0600) every process of the home shares', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const key = async (at: string, env: NodeJS.ProcessEnv) => (await new FileStateKeys(at, env).ring()).current;
  const first = await key(home, {});
  assert.equal(await key(home, {}), first, 'the same key on the next start');
  assert.is(statSync(join(home, 'state.key')).mode & 0o777, 0o600);
  assert.not.equal((await key(home, { SEXTANT_STATE_KEY: 'shared secret' })).secret, first.secret);
  const shared = await key(mkdtempSync(join(tmpdir(), 'sextant-home-')), { SEXTANT_STATE_KEY: 'shared secret' });
  assert.equal(await key(home, { SEXTANT_STATE_KEY: 'shared secret' }), shared, 'the same secret gives the same key and id everywhere');
});

test('input_required, then the retry with inputResponses completes; several rounds carry their state; tampered state is -32602', async () => {
  const http = await startTestHttp();
  try {
    const first = await call(http.urls.mcp, 'test_input_required_result_elicitation');
    assert.is(first.result!.resultType, 'input_required');
    assert.not.ok('ttlMs' in first.result!, 'an interim result is not cacheable');
    assert.equal(Object.keys(first.result!.inputRequests as object), ['user_name']);
    const done = await call(http.urls.mcp, 'test_input_required_result_elicitation', { inputResponses: { user_name: accept({ name: 'Ada' }) } });
    assert.is(done.result!.resultType, 'complete');
    assert.equal((done.result!.content as Array<{ text: string }>)[0]!.text, 'Hello, Ada!');

    const round1 = await call(http.urls.mcp, 'test_input_required_result_multi_round');
    const round2 = await call(http.urls.mcp, 'test_input_required_result_multi_round', {
      inputResponses: { step1: accept({ name: 'Ada' }) },
      requestState: round1.result!.requestState,
    });
    assert.equal(Object.keys(round2.result!.inputRequests as object), ['step2']);
    assert.not.equal(round2.result!.requestState, round1.result!.requestState);
    const round3 = await call(http.urls.mcp, 'test_input_required_result_multi_round', {
      inputResponses: { step2: accept({ color: 'green' }) },
      requestState: round2.result!.requestState,
    });
    assert.equal((round3.result!.content as Array<{ text: string }>)[0]!.text, 'Ada likes green');

    const tampered = await call(http.urls.mcp, 'test_input_required_result_request_state', {
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: `${String(round1.result!.requestState)}-TAMPERED`,
    });
    assert.is(tampered.error!.code, -32602);
    const elsewhere = await call(http.urls.mcp, 'test_input_required_result_request_state', {
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: round1.result!.requestState,
    });
    assert.is(elsewhere.error!.code, -32602, 'a state is bound to the request that got it');

    const resource = await call(http.urls.mcp, 'test://with-input', { uri: 'test://with-input' }, ALL_INPUT, 'resources/read');
    assert.is(resource.result!.resultType, 'input_required');
    assert.not.ok('ttlMs' in resource.result!);
    const read = await call(
      http.urls.mcp,
      'test://with-input',
      { uri: 'test://with-input', inputResponses: { greeting: accept({ greeting: 'Hi there' }) } },
      ALL_INPUT,
      'resources/read',
    );
    assert.equal((read.result!.contents as Array<{ text: string }>)[0]!.text, 'Hi there');
    assert.is(read.result!.ttlMs, 0);
    const prompt = await call(http.urls.mcp, 'test_input_required_result_prompt', {}, ALL_INPUT, 'prompts/get');
    assert.is(prompt.result!.resultType, 'input_required');
    const promptDone = await call(
      http.urls.mcp,
      'test_input_required_result_prompt',
      { inputResponses: { user_context: accept({ context: 'tests' }) } },
      ALL_INPUT,
      'prompts/get',
    );
    assert.ok(Array.isArray(promptDone.result!.messages));
  } finally {
    await http.close();
  }
});

test('a tool written against server-to-client requests (test_elicitation, test_sampling) works in 2026 through input_required rounds', async () => {
  const http = await startTestHttp();
  try {
    const asked = await call(http.urls.mcp, 'test_elicitation', { arguments: { message: 'Who are you?' } });
    assert.is(asked.result!.resultType, 'input_required');
    const request = (asked.result!.inputRequests as Record<string, { method: string; params: { message: string } }>).elicitation_create_1!;
    assert.is(request.method, 'elicitation/create');
    assert.is(request.params.message, 'Who are you?');
    const answered = await call(http.urls.mcp, 'test_elicitation', {
      arguments: { message: 'Who are you?' },
      inputResponses: { elicitation_create_1: accept({ username: 'ada', email: 'ada@example.org' }) },
    });
    assert.match((answered.result!.content as Array<{ text: string }>)[0]!.text, 'ada@example.org');
    const sampled = await call(http.urls.mcp, 'test_sampling', {
      arguments: { prompt: 'Say hi' },
      inputResponses: { sampling_createMessage_1: { role: 'assistant', content: { type: 'text', text: 'hi!' }, model: 'm', stopReason: 'endTurn' } },
    });
    assert.match((sampled.result!.content as Array<{ text: string }>)[0]!.text, 'LLM response: hi!');
  } finally {
    await http.close();
  }
});

test('an input request the client did not declare it can answer is never sent: 400 -32021 naming the capability', async () => {
  const http = await startTestHttp();
  try {
    const refused = await call(http.urls.mcp, 'test_input_required_result_elicitation', {}, { sampling: {} });
    assert.is(refused.status, 400);
    assert.is(refused.error!.code, -32021);
    assert.equal(refused.error!.data, { requiredCapabilities: { elicitation: {} } });
    const narrowed = await call(http.urls.mcp, 'test_input_required_result_capabilities', {}, { sampling: {} });
    assert.equal(
      Object.values(narrowed.result!.inputRequests as Record<string, { method: string }>).map((input) => input.method),
      ['sampling/createMessage'],
    );
  } finally {
    await http.close();
  }
});

test('two processes sharing SEXTANT_HOME: a round answered by one is finished by the other; a process of another home refuses the state', async () => {
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const [a, b, stranger] = await Promise.all([serveProcess(home), serveProcess(home), serveProcess(mkdtempSync(join(tmpdir(), 'sextant-home-')))]);
  try {
    const round1 = await call(a.url, 'test_input_required_result_request_state');
    assert.is(round1.result!.resultType, 'input_required');
    const retry = { inputResponses: { confirm: accept({ ok: true }) }, requestState: round1.result!.requestState };
    const finished = await call(b.url, 'test_input_required_result_request_state', retry);
    assert.match((finished.result!.content as Array<{ text: string }>)[0]!.text, 'state-ok');
    const refused = await call(stranger.url, 'test_input_required_result_request_state', retry);
    assert.is(refused.error!.code, -32602);
  } finally {
    await Promise.all([a.stop(), b.stop(), stranger.stop()]);
  }
});

test.run();
