import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classify, decode, ErrorCodes, InvalidRequestError, toErrorObject } from '../../src/jsonrpc/index.js';

test('requests, notifications and both kinds of response are told apart', () => {
  assert.is(classify({ jsonrpc: '2.0', id: 1, method: 'ping' }).kind, 'request');
  assert.is(classify({ jsonrpc: '2.0', id: 'a', method: 'ping', params: {} }).kind, 'request');
  assert.is(classify({ jsonrpc: '2.0', method: 'notifications/initialized' }).kind, 'notification');
  assert.is(classify({ jsonrpc: '2.0', id: 1, result: {} }).kind, 'response');
  assert.is(classify({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } }).kind, 'response');
  assert.is(classify({ jsonrpc: '2.0', error: { code: -32700, message: 'x' } }).kind, 'response');
});

const invalid: Array<[string, unknown, unknown]> = [
  ['not an object', 42, undefined],
  ['an array inside', [1], undefined],
  ['null', null, undefined],
  ['wrong version', { jsonrpc: '1.0', id: 3, method: 'x' }, 3],
  ['missing version', { id: 3, method: 'x' }, 3],
  ['method not a string', { jsonrpc: '2.0', id: 4, method: 7 }, 4],
  ['params not an object', { jsonrpc: '2.0', id: 5, method: 'x', params: 'p' }, 5],
  ['params an array', { jsonrpc: '2.0', id: 6, method: 'x', params: [1] }, 6],
  ['null id (MCP forbids it)', { jsonrpc: '2.0', id: null, method: 'x' }, undefined],
  ['fractional id', { jsonrpc: '2.0', id: 1.5, method: 'x' }, undefined],
  ['object id', { jsonrpc: '2.0', id: {}, method: 'x' }, undefined],
  ['neither method nor result', { jsonrpc: '2.0', id: 8 }, 8],
  ['result and error', { jsonrpc: '2.0', id: 9, result: {}, error: { code: 1, message: 'm' } }, 9],
  ['result not an object', { jsonrpc: '2.0', id: 10, result: 3 }, 10],
  ['error without code', { jsonrpc: '2.0', id: 11, error: { message: 'm' } }, 11],
];
for (const [name, value, id] of invalid) {
  test(`invalid: ${name} → -32600${id === undefined ? ' without id' : ` with id ${id}`}`, () => {
    const classified = classify(value);
    if (classified.kind !== 'invalid') return assert.unreachable(`classified as ${classified.kind}`);
    assert.is(classified.id, id);
    assert.instance(classified.error, InvalidRequestError);
    assert.is(classified.error.rpcCode, ErrorCodes.InvalidRequest);
    assert.ok(classified.error.message.startsWith('Invalid'));
  });
}

test('decode reports a parse error with the parser detail, not the code, in the message', () => {
  const bad = decode('{"a":');
  if (bad.ok) return assert.unreachable('should not decode');
  assert.is(bad.error.rpcCode, -32700);
  assert.is(bad.error.code, 'JSONRPC_PARSE_ERROR');
  assert.not.match(bad.error.message, /-32700/);
  assert.ok(typeof (bad.error.data as { detail: string }).detail === 'string');
  const good = decode('{"a":1}');
  assert.equal(good, { ok: true, value: { a: 1 } });
});

test('toErrorObject maps only our own errors; foreign objects with a numeric code become internal errors', () => {
  assert.equal(toErrorObject(new InvalidRequestError('nope')), { code: -32600, message: 'nope' });
  const foreign = Object.assign(new Error('EACCES: /secret'), { code: -32602 });
  assert.equal(toErrorObject(foreign), { code: -32603, message: 'Internal error' });
});

test.run();
