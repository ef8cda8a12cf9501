/**
 * The project catalog's contract (src/coordination/contracts.ts), run against each
 * implementation: what one handle adds, another reads whole; a name is taken once, regardless of
 * case, even when processes race for it; nothing malformed is stored.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { InvalidEntryError, ProjectExistsError, type CatalogProject } from '../../src/coordination/index.js';
import { closeOpened, implementations, inProcesses } from './implementations.js';

const web: CatalogProject = { name: 'web', location: { git: 'https://example.com/team/web.git', ref: 'main' } };
const tools: CatalogProject = { name: 'Tools', location: { folder: '/srv/tools' } };
/** A project as read back: with its WHO list, empty when nobody is named. */
const read = (project: CatalogProject, allowed: string[] = []): CatalogProject => ({ ...project, allowed });

for (const implementation of implementations) {
  test(`${implementation.name}: a project added by one handle is listed and read whole by the other, and removed once`, async () => {
    const [one, other] = await implementation.open();
    assert.equal(await other.catalog.list(), []);
    await one.catalog.add(web);
    await one.catalog.add(tools);
    assert.equal(await other.catalog.list(), [read(tools), read(web)], 'whole, by name');
    assert.equal(await other.catalog.get('web'), read(web));
    assert.equal(await other.catalog.get('tools'), read(tools), 'found regardless of case, spelt as added');
    assert.is(await other.catalog.get('nothing'), undefined);
    assert.ok(await other.catalog.remove('WEB'));
    assert.not.ok(await one.catalog.remove('web'), 'already gone');
    assert.equal(await one.catalog.list(), [read(tools)]);
  });

  test(`${implementation.name}: a taken name is refused regardless of case, and the entry in place is kept`, async () => {
    const [one, other] = await implementation.open();
    await one.catalog.add(web);
    try {
      await other.catalog.add({ name: 'WEB', location: { folder: '/elsewhere' } });
      assert.unreachable('the name is taken');
    } catch (error) {
      assert.instance(error, ProjectExistsError);
      assert.is((error as ProjectExistsError).code, 'project_exists');
      assert.match((error as Error).message, /"WEB" is already registered/);
    }
    assert.equal(await one.catalog.get('web'), read(web));
  });

  test(`${implementation.name}: malformed names and locations are refused with what is wrong, and nothing is stored`, async () => {
    const [one] = await implementation.open();
    const bad: [unknown, RegExp][] = [
      [{ name: '../escape', location: { folder: '/x' } }, /Invalid project name "\.\.\/escape"/],
      [{ name: '', location: { folder: '/x' } }, /Invalid project name ""/],
      [{ name: '-flag', location: { folder: '/x' } }, /Invalid project name "-flag"/],
      [{ name: 'a'.repeat(65), location: { folder: '/x' } }, /Invalid project name/],
      [{ name: 'rel', location: { folder: 'relative/path' } }, /one absolute path/],
      [{ name: 'both', location: { folder: '/x', git: 'https://example.com/x.git' } }, /one absolute path/],
      [{ name: 'noref', location: { git: 'https://example.com/x.git' } }, /is not a git branch or tag name/],
      [{ name: 'badref', location: { git: 'https://example.com/x.git', ref: 'a..b' } }, /"a\.\.b" is not a git branch/],
      [{ name: 'option', location: { git: '--upload-pack=touch /tmp/x', ref: 'main' } }, /needs a remote URL/],
      [{ name: 'nowhere' }, /has no location/],
      [null, /must be an object/],
    ];
    for (const [project, message] of bad) {
      try {
        await one.catalog.add(project as CatalogProject);
        assert.unreachable(`${JSON.stringify(project)} must be refused`);
      } catch (error) {
        assert.instance(error, InvalidEntryError, JSON.stringify(project));
        assert.match((error as Error).message, message);
      }
    }
    assert.equal(await one.catalog.list(), []);
    try {
      await one.catalog.get('../../etc/passwd');
      assert.unreachable('a name that is not one is never looked up');
    } catch (error) {
      assert.instance(error, InvalidEntryError);
    }
  });

  test(`${implementation.name}: who may see a project: set at creation, allowed and disallowed by either handle, gone with the project`, async () => {
    const [one, other] = await implementation.open();
    await one.catalog.add({ ...web, allowed: ['group:payments', 'token:CI', 'group:payments'] });
    assert.equal(await other.catalog.get('web'), read(web, ['group:payments', 'token:ci']), 'checked, each once, sorted; token names lower-cased');
    assert.ok(await other.catalog.allow('WEB', 'user:auth0|42'));
    assert.ok(await one.catalog.allow('web', 'user:auth0|42'), 'allowing twice is allowing once');
    assert.ok(await one.catalog.allow('web', 'everyone'));
    assert.equal((await one.catalog.list())[0]!.allowed, ['everyone', 'group:payments', 'token:ci', 'user:auth0|42']);
    assert.ok(await one.catalog.disallow('web', 'group:payments'));
    assert.ok(await one.catalog.disallow('web', 'group:never-there'), 'taking off someone not on the list changes nothing');
    assert.equal((await other.catalog.get('web'))!.allowed, ['everyone', 'token:ci', 'user:auth0|42']);
    assert.not.ok(await one.catalog.allow('nothing', 'everyone'), 'no such project');
    assert.not.ok(await one.catalog.disallow('nothing', 'everyone'));
    for (const who of ['nobody', 'user:', 'user:has space', 'token:../x', 'group', 'admin:x']) {
      try {
        await one.catalog.allow('web', who);
        assert.unreachable(`${who} must be refused`);
      } catch (error) {
        assert.instance(error, InvalidEntryError, who);
        assert.match((error as Error).message, /use user:SUB, group:NAME, token:NAME or everyone/);
      }
    }
    assert.ok(await one.catalog.remove('web'));
    await one.catalog.add(web);
    assert.equal(await other.catalog.get('web'), read(web), 'a project added again under the name starts with nobody named');
  });

  test(`${implementation.name}: processes racing to add one name: exactly one succeeds, and its entry is the one kept`, async () => {
    const [one] = await implementation.open();
    const outcomes = await inProcesses(
      implementation,
      6,
      (index) => `
        try {
          await coordination.catalog.add({ name: 'race', location: { folder: '/srv/writer-${index}' } });
          console.log('added /srv/writer-${index}');
        } catch (error) {
          console.log(error.code);
        }`,
    );
    const added = outcomes.filter((outcome) => outcome.startsWith('added'));
    assert.is(added.length, 1, outcomes.join(', '));
    assert.equal(outcomes.filter((outcome) => outcome === 'project_exists').length, 5);
    assert.equal(await one.catalog.list(), [{ name: 'race', location: { folder: added[0]!.slice('added '.length) }, allowed: [] }]);
  });
}

test("files: a stray file in a project's access folder grants nothing and breaks nothing; a new project of a name inherits no leftover list", async () => {
  const files = implementations.find((implementation) => implementation.name === 'files')!;
  const [one] = await files.open();
  await one.catalog.add({ ...web, allowed: ['token:ci'] });
  const home = one.describe.replace(/^files /, '');
  writeFileSync(join(home, 'catalog', 'web.access', '.DS_Store'), 'junk');
  writeFileSync(join(home, 'catalog', 'web.access', 'not-base64-of-a-who'), '');
  assert.equal((await one.catalog.get('web'))!.allowed, ['token:ci']);
  // A crash between removing the entry and its list leaves the list behind.
  rmSync(join(home, 'catalog', 'web.json'));
  await one.catalog.add(web);
  assert.equal((await one.catalog.get('web'))!.allowed, [], 'the leftover grant is not inherited');
});

test.after.each(closeOpened);

test.run();
