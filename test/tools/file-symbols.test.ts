/**
 * What the definitions of a file say of one another (src/tools/context/file-symbols.ts), read
 * from a real index: a closure is a function its parent's body holds, and a member's type is
 * found by its qualified name first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FileSymbols } from '../../src/tools/context/file-symbols.js';
import { Project } from '../../src/workspace/project.js';
import { runCli } from '../helpers/process.js';
import { projectTree } from '../helpers/projects.js';

const FILES = {
  'lib/watcher.js': [
    'function Watcher(host) {\n',
    '  function pollQueue(queue) {\n    return queue.map((file) => host.stat(file));\n  }\n',
    '  this.poll = pollQueue;\n}\n\n',
    'Watcher.create = function (host) {\n  return new Watcher(host);\n};\n',
  ].join(''),
  'src/Outer.java': [
    'public class Outer {\n',
    '  public static class A {\n    public static class Builder {\n      public void build() {}\n    }\n  }\n',
    '  public static class B {\n    public static class Builder {\n      public void build() {}\n    }\n  }\n',
    '}\n',
  ].join(''),
};

test('a closure is held by its parent; a function assigned outside it is not; a member finds its own type', async () => {
  const root = projectTree(FILES);
  const home = mkdtempSync(join(tmpdir(), 'sextant-home-'));
  const project = new Project(root, { home });
  try {
    const indexed = await runCli(['index', root], '', { SEXTANT_HOME: home });
    assert.is(indexed.code, 0, indexed.stderr);
    const symbols = project.symbols();
    if (!symbols) assert.unreachable('the index has symbols');
    const files = new FileSymbols(symbols!);
    const js = files.in('lib/watcher.js');
    const named = (qualified: string) => js.find((symbol) => symbol.qualifiedName === qualified)!;
    assert.ok(files.nested(named('Watcher.pollQueue'), 'lib/watcher.js'), 'pollQueue is inside Watcher');
    assert.not.ok(files.nested(named('Watcher.create'), 'lib/watcher.js'), 'Watcher.create is assigned outside Watcher');
    assert.not.ok(files.nested(named('Watcher'), 'lib/watcher.js'));

    const java = files.in('src/Outer.java');
    const builds = java.filter((symbol) => symbol.name === 'build');
    assert.is(builds.length, 2, java.map((symbol) => symbol.qualifiedName).join(', '));
    const types = builds.map((build) => files.typeOf(build, 'src/Outer.java')?.qualifiedName);
    assert.equal(types.sort(), ['Outer.A.Builder', 'Outer.B.Builder']);
  } finally {
    await project.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
