/**
 * get_code_context answers plain-language questions by their words (lexical-rank.ts): a
 * definition whose name, place and doc say what was asked comes before long functions that only
 * mention the question's words somewhere in their bodies. The relevance figures on real trees
 * are bench/context-relevance.mjs's (bench/RESULTS.md).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bm25, questionWords, searchKey, stem, wordsOf } from '../../src/tools/context/lexical-rank.js';
import { call, withIndexedProject } from '../helpers/projects.js';

/** A long function that says all the question's words, but past its first lines. */
function mentioningFunction(name: string, words: string): string {
  const filler = Array.from({ length: 15 }, (_, index) => `    step_${index} = ${index}\n`).join('');
  return `def ${name}(argv):\n${filler}    print(${JSON.stringify(words)})\n    return 0\n\n\n`;
}

const FILES = {
  'net/request.py': [
    '"""Opening URLs."""\n\n\ndef urlopen(url, data=None, timeout=None):\n    """Open the URL url, which can be either a string or a Request object."""\n    return build_opener().open(url, data, timeout)\n\n\n',
    'def build_opener(*handlers):\n    """Create an opener object from a list of handlers."""\n    return OpenerDirector(handlers)\n\n\n',
    'class OpenerDirector:\n    def open(self, url, data=None, timeout=None):\n        return url\n\n\n',
    'class ProxyHandler:\n    """Send each request through the proxy configured for its scheme (http, https, ftp)."""\n\n    def proxy_open(self, request, proxy, kind):\n        return request\n',
  ].join(''),
  'csvlib/csv.py':
    'class DictReader:\n    """Iterate over the records of a comma-separated table, each one a mapping."""\n\n    def __next__(self):\n        return {}\n',
  'tools/report.py': ['main', 'summary', 'notes'].map((name) => mentioningFunction(name, 'how does it pick a handler for https urlopen proxy')).join(''),
  'tools/rows.py': ['load', 'dump', 'check'].map((name) => mentioningFunction(name, 'read the csv file row by row as dictionaries')).join(''),
};

type Item = { qualified_name: string; path: string; matched_terms: string[] };

test('plain-language questions: the definition named for the answer first, not the bodies that mention its words', async () => {
  await withIndexedProject(FILES, async (client) => {
    const proxy = await call(client, 'get_code_context', { query: 'how does urlopen pick a proxy handler for https' });
    const proxyItems = proxy.structuredContent!.context_items as Item[];
    assert.is(proxyItems[0]!.qualified_name, 'ProxyHandler', proxyItems.map((item) => item.qualified_name).join(', '));
    assert.ok(proxyItems[0]!.matched_terms.includes('proxi') && proxyItems[0]!.matched_terms.includes('handler'));
    assert.match(proxy.content[0]!.text, '## class ProxyHandler — net/request.py:19-');

    // DictReader says neither "csv" nor "read" in its doc: its path and its name do.
    const rows = await call(client, 'get_code_context', { query: 'read a csv file row by row as dictionaries' });
    const rowItems = rows.structuredContent!.context_items as Item[];
    assert.is(rowItems[0]!.qualified_name, 'DictReader', rowItems.map((item) => item.qualified_name).join(', '));
  });
});

test('words: identifiers split and stemmed, the question without its filler', () => {
  assert.equal(wordsOf('getUserById parse_HTTPResponse'), ['get', 'user', 'by', 'id', 'parse', 'http', 'response']);
  assert.equal(['proxies', 'proxy', 'cookies', 'cookie', 'classes', 'parsing', 'resolved', 'class', 'status', 'copied'].map(stem), [
    'proxi',
    'proxi',
    'cooki',
    'cooki',
    'class',
    'pars',
    'resolv',
    'class',
    'status',
    'copi',
  ]);
  assert.equal(['proxi', 'cooki', 'class'].map(searchKey), ['prox', 'cook', 'class']);
  assert.equal(questionWords('How does urlopen pick a proxy handler for HTTPS?'), ['urlopen', 'pick', 'proxi', 'handler', 'http']);
});

test('a definition the question names as code leads, however many of its words another one holds', async () => {
  const files = {
    'store/users.py': 'def saveUser(user):\n    """Write one user."""\n    return user\n',
    'store/accounts.py':
      'class AccountStore:\n    """Save each user account with its password hash, salted, in the database table of users."""\n\n' +
      '    def save(self, user):\n        """Save the user, hashing the password into the database."""\n        return user\n',
  };
  await withIndexedProject(files, async (client) => {
    const answer = await call(client, 'get_code_context', { query: 'how does saveUser hash the password and save the user in the database' });
    const items = answer.structuredContent!.context_items as Item[];
    assert.is(items[0]!.qualified_name, 'saveUser', items.map((item) => item.qualified_name).join(', '));
    assert.ok(items.some((item) => item.qualified_name === 'AccountStore.save'));
  });
});

test('a type is found by its members: named by none of the question, it follows its best member', async () => {
  const files = {
    'hall/turnstile.py': [
      'class Turnstile:\n    """A gate in the hall."""\n\n',
      '    def acquire_permit(self):\n        """Wait for a free permit, then take it."""\n        return True\n\n',
      '    def release_permit(self):\n        """Give a permit back, waking one waiter."""\n        return None\n',
    ].join(''),
    'hall/doors.py': 'def open_door(door):\n    """Open a door of the hall."""\n    return door\n',
  };
  await withIndexedProject(files, async (client) => {
    const answer = await call(client, 'get_code_context', { query: 'wait for a free permit and give it back when done' });
    const names = (answer.structuredContent!.context_items as Item[]).map((item) => item.qualified_name);
    assert.ok(names.includes('Turnstile'), names.join(', '));
    const best = Math.min(names.indexOf('Turnstile.acquire_permit'), names.indexOf('Turnstile.release_permit'));
    assert.ok(best >= 0 && best < names.indexOf('Turnstile'), `the type after its best member: ${names.join(', ')}`);
    assert.match(answer.content[0]!.text, '## class Turnstile — hall/turnstile.py:1-');
  });
});

test('a function inside a function counts as private: the function that holds it comes first for the same words', async () => {
  // Bundled code (typescript.js) nests thousands of closures in the functions they serve.
  const files = {
    'lib/watch.js': [
      '/** Watch files by polling them, the busy ones more often than the quiet ones. */\n',
      'function createPollingWatcher(host) {\n',
      '  /** Poll the files of one queue, then wait for the next round. */\n',
      '  function pollFileQueue(queue) {\n    return queue.map((file) => host.stat(file));\n  }\n',
      '  return { poll: pollFileQueue };\n}\n',
    ].join(''),
  };
  await withIndexedProject(files, async (client) => {
    const answer = await call(client, 'get_code_context', { query: 'watch files by polling a queue' });
    const names = (answer.structuredContent!.context_items as Item[]).map((item) => item.qualified_name);
    assert.is(names[0], 'createPollingWatcher', names.join(', '));
    assert.ok(names.includes('createPollingWatcher.pollFileQueue'), names.join(', '));
  });
});

test('bm25: a rare word outweighs a common one, a name outweighs a mention, and all the words in one place outweigh them apart', () => {
  const words = new Map([
    ['proxy', 3],
    ['handler', 1],
  ]);
  const empty = { name: [], parent: [], path: [], text: [], body: [] };
  const rare = bm25({ ...empty, name: ['proxy'] }, words).score;
  const common = bm25({ ...empty, name: ['handler'] }, words).score;
  assert.ok(rare > common);
  assert.ok(bm25({ ...empty, name: ['proxy'] }, words).score > bm25({ ...empty, body: ['proxy'] }, words).score);
  const both = bm25({ ...empty, name: ['proxy', 'handler'] }, words);
  assert.ok(both.score > rare + common);
  assert.equal(both.matched, ['proxy', 'handler']);
  // Half a match for a shared start of five letters: resolution and resolve.
  const resolve = bm25({ ...empty, name: ['resolv'] }, new Map([['resolution', 1]])).score;
  assert.ok(resolve > 0 && resolve < bm25({ ...empty, name: ['resolution'] }, new Map([['resolution', 1]])).score);
});

test('bm25: a doc that says most of the question outranks a name holding only its rarest word', () => {
  // "delete an element by moving the last one into the hole, without preserving order": a
  // definition named Hole against one whose doc says element, last, preserve and order. With
  // coverage counted once (a factor of 1 + the share covered), the name won.
  const words = new Map([
    ['hole', 8],
    ['remov', 2],
    ['element', 1.5],
    ['last', 2],
    ['preserv', 3],
    ['order', 2],
  ]);
  const empty = { name: [], parent: [], path: [], text: [], body: [] };
  const named = bm25({ ...empty, name: ['hole'] }, words);
  const said = bm25(
    {
      ...empty,
      name: ['swap', 'take'],
      summary: ['take', 'element', 'out', 'vector'],
      doc: ['replac', 'last', 'element', 'vector', 'doe', 'not', 'preserv', 'order', 'but'],
    },
    words,
  );
  assert.equal(said.matched, ['element', 'last', 'preserv', 'order']);
  assert.ok(said.score > named.score, `${said.score} > ${named.score}`);
});

test.run();
