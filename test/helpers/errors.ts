/** Awaits a request that must fail with a JSON-RPC error from the other side, and returns it. */
import * as assert from 'uvu/assert';
import { RemoteError } from '../../src/jsonrpc/index.js';

export async function expectRpcError(promise: Promise<unknown>, code: number, pattern?: RegExp | string): Promise<RemoteError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, RemoteError);
    assert.is((error as RemoteError).rpcCode, code);
    if (pattern) assert.match((error as RemoteError).message, pattern);
    return error as RemoteError;
  }
  assert.unreachable(`expected JSON-RPC error ${code}`);
  throw new Error('unreachable');
}
