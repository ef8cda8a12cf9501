/**
 * The named tokens' contract (src/coordination/contracts.ts), run against each implementation:
 * a token created by one handle is found by its digest from the other, never shows its digest,
 * is unique regardless of case, and once revoked is found no more.
 */
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { InvalidEntryError, TokenExistsError } from '../../src/coordination/index.js';
import { closeOpened, implementations } from './implementations.js';

const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');

for (const implementation of implementations) {
  test(`${implementation.name}: a token created by one handle is found by its digest from the other, then revoked everywhere`, async () => {
    const [one, other] = await implementation.open();
    assert.equal(await other.tokens.list(), []);
    assert.not.ok(await other.tokens.configured(), 'no token was ever made');
    const created = await one.tokens.create({ name: 'CI', admin: false, digest: digest('secret-1') });
    assert.equal(Object.keys(created).sort(), ['admin', 'createdAt', 'name'], 'never the digest');
    await one.tokens.create({ name: 'ops', admin: true, digest: digest('secret-2') });
    const found = await other.tokens.find(digest('secret-1'));
    assert.is(found?.name, 'CI');
    assert.is(found?.admin, false);
    assert.is((await other.tokens.find(digest('secret-2')))?.admin, true);
    assert.is(await other.tokens.find(digest('no such secret')), undefined);
    assert.equal(
      (await other.tokens.list()).map((token) => [token.name, token.admin, 'lastUsedAt' in token]),
      [
        ['CI', false, false],
        ['ops', true, false],
      ],
    );
    await other.tokens.used('ci');
    const used = (await one.tokens.list()).find((token) => token.name === 'CI')!;
    assert.ok(Date.parse(used.lastUsedAt!) >= Date.parse(used.createdAt), 'a use is recorded, by name regardless of case');
    assert.not.ok(JSON.stringify(await one.tokens.list()).includes(digest('secret-1')), 'a listing never holds a digest');
    assert.ok(await other.tokens.revoke('ci'));
    assert.is(await one.tokens.find(digest('secret-1')), undefined, 'revoked: found no more');
    assert.not.ok(await one.tokens.revoke('CI'), 'already gone');
    assert.equal(
      (await one.tokens.list()).map((token) => token.name),
      ['ops'],
    );
    assert.ok(await one.tokens.revoke('ops'));
    assert.equal(await other.tokens.list(), []);
    assert.ok(await other.tokens.configured(), 'revoking the last token leaves identities configured: the server closes, it does not open');
  });

  test(`${implementation.name}: a taken name is refused regardless of case; bad names and digests are refused, nothing stored`, async () => {
    const [one, other] = await implementation.open();
    await one.tokens.create({ name: 'deploy', admin: false, digest: digest('a') });
    try {
      await other.tokens.create({ name: 'DEPLOY', admin: true, digest: digest('b') });
      assert.unreachable('the name is taken');
    } catch (error) {
      assert.instance(error, TokenExistsError);
      assert.is((error as TokenExistsError).code, 'token_exists');
    }
    assert.is((await one.tokens.find(digest('a')))?.admin, false, 'the token in place is kept');
    const bad: Array<[unknown, RegExp]> = [
      [{ name: '../x', admin: false, digest: digest('c') }, /Invalid token name/],
      [{ name: 'x', admin: 'yes', digest: digest('c') }, /admin is true or false/],
      [{ name: 'x', admin: false, digest: 'secret-in-clear' }, /not a SHA-256/],
    ];
    for (const [token, message] of bad) {
      try {
        await one.tokens.create(token as { name: string; admin: boolean; digest: string });
        assert.unreachable(JSON.stringify(token));
      } catch (error) {
        assert.instance(error, InvalidEntryError);
        assert.match((error as Error).message, message);
      }
    }
    assert.equal(
      (await one.tokens.list()).map((token) => token.name),
      ['deploy'],
    );
  });
}

test.after.each(closeOpened);

test.run();
