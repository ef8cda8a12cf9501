import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RemoteError } from '../../src/jsonrpc/index.js';
import { createSextantServer, loadProfile } from '../../src/server.js';
import { connect } from '../helpers/connect.js';
import { tick } from '../helpers/wait.js';

const server = createSextantServer({ profile: await loadProfile('conformance') });

test('resources: list, read static and binary, read through a template with its variable', async () => {
  const c = connect(server);
  await c.initialize();
  const { resources } = (await c.client.request('resources/list')) as { resources: Array<{ uri: string }> };
  assert.equal(
    resources.map((r) => r.uri),
    ['test://static-binary', 'test://static-text', 'test://watched-resource'],
  );
  const { resourceTemplates } = (await c.client.request('resources/templates/list')) as { resourceTemplates: Array<Record<string, unknown>> };
  assert.equal(
    resourceTemplates.map((t) => t.uriTemplate),
    ['test://template/{id}/data'],
  );
  assert.not.ok('read' in resourceTemplates[0]!);
  const text = await c.client.request('resources/read', { uri: 'test://static-text' });
  assert.is((text.contents as Array<{ text: string }>)[0]!.text, 'This is the content of the static text resource.');
  const binary = await c.client.request('resources/read', { uri: 'test://static-binary' });
  assert.ok((binary.contents as Array<{ blob: string }>)[0]!.blob.length > 0);
  const templated = await c.client.request('resources/read', { uri: 'test://template/42%20x/data' });
  assert.match((templated.contents as Array<{ text: string }>)[0]!.text, '"id":"42 x"');
  await tick();
  assert.equal(c.checker.problems, []);
  c.close();
});

test('subscriptions: only subscribed sessions hear resources/updated; unknown URIs are -32002', async () => {
  const a = connect(server);
  const b = connect(server);
  await a.initialize();
  await b.initialize();
  const heard: unknown[] = [];
  a.client.onNotification('notifications/resources/updated', (params) => void heard.push(params));
  b.client.onNotification('notifications/resources/updated', () => assert.unreachable('b did not subscribe'));
  assert.equal(await a.client.request('resources/subscribe', { uri: 'test://watched-resource' }), {});
  assert.is(server.resourceUpdated('test://watched-resource'), 1);
  await tick();
  assert.equal(heard, [{ uri: 'test://watched-resource' }]);
  assert.equal(await a.client.request('resources/unsubscribe', { uri: 'test://watched-resource' }), {});
  assert.is(server.resourceUpdated('test://watched-resource'), 0);
  try {
    await a.client.request('resources/subscribe', { uri: 'test://nope' });
    assert.unreachable('unknown resource');
  } catch (error) {
    assert.is((error as RemoteError).rpcCode, -32002);
  }
  assert.equal(a.checker.problems, []);
  a.close();
  b.close();
});

test('prompts: get with arguments, missing required ones are -32602, completion filters by prefix', async () => {
  const c = connect(server);
  await c.initialize();
  const got = await c.client.request('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
  assert.match(JSON.stringify(got.messages), "arg1='a', arg2='b'");
  try {
    await c.client.request('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a' } });
    assert.unreachable('arg2 is required');
  } catch (error) {
    assert.is((error as RemoteError).rpcCode, -32602);
    assert.match((error as RemoteError).message, 'arg2');
  }
  const completion = await c.client.request('completion/complete', {
    ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
    argument: { name: 'arg1', value: 'par' },
  });
  assert.equal(completion, { completion: { values: ['paris', 'park', 'party'], total: 3, hasMore: false } });
  await tick();
  assert.equal(c.checker.problems, []);
  c.close();
});

test.run();
