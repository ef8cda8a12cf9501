// The linter's rules, with the house's layers among them: which room may import which, and how
// other rooms enter the index (its rooms' front doors). `npm run lint`; .ci/run runs it.
//
// Imports are relative, so a rule matches a room by its name in the specifier, at the depth a
// file's own folder puts src/ (a rule per depth): `../tools.js` from src/mcp/stateless/ is
// mcp's tools.ts, never the tools room.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The rooms of src/ (folders, and the files that stand alone at its top). */
const ROOMS = [
  'cli',
  'conformance',
  'coordination',
  'index',
  'jsonrpc',
  'mcp',
  'record',
  'team',
  'tools',
  'transports',
  'util',
  'workspace',
  'caller',
  'identity',
  'platform',
  'errors',
  'server',
  'version',
  'wording',
  'web',
];

/** Room → the rooms it may import from (itself always). cli and server compose the rest. */
const MAY_IMPORT = {
  util: [],
  // Where the process runs: threads, the binary's assets, the log, the heap, whether a pid lives.
  platform: ['util'],
  jsonrpc: [],
  // What processes share (keys, tasks, leases): below every room that shares something.
  coordination: ['util', 'platform'],
  mcp: ['jsonrpc', 'coordination', 'caller', 'errors', 'platform'],
  record: ['jsonrpc', 'mcp', 'caller'],
  conformance: ['jsonrpc', 'mcp', 'errors'],
  index: ['util', 'coordination', 'platform', 'errors'],
  workspace: ['util', 'index', 'caller', 'errors', 'platform', 'wording'],
  // Who a credential says a caller is: the named tokens of the seam, read by the HTTP gate.
  identity: ['util', 'coordination', 'caller', 'platform'],
  // One crossing, by design: the HTTP gate refuses a bad `project_path` before any session exists.
  transports: ['jsonrpc', 'mcp', 'caller', 'platform', 'workspace', 'identity', 'web'],
  // The web page: its document and built files (the page itself, web/page, runs in the browser).
  web: ['platform'],
  tools: ['util', 'index', 'workspace', 'mcp', 'jsonrpc', 'caller', 'errors', 'wording', 'platform'],
  // The team server's replica work: git, following the catalog, the controller.
  team: ['util', 'coordination', 'workspace', 'errors', 'platform'],
};

/** The index's rooms, lowest first: each imports only from the rooms before it. */
const INDEX_ROOMS = ['text', 'files', 'store', 'symbols', 'search', 'build', 'watch'];

const escape = (name) => name.replace(/\./g, '\\.');
/** A specifier that reaches one of `rooms` (a folder, or a file at the top of src/) from `depth` folders below src/. */
const reaches = (rooms, depth) => `^(\\.\\./){${depth}}(${rooms.map(escape).join('|')})(/|\\.js$)`;
/** How deep a room's folders go: src/ROOM/a/b/c.ts is depth 3. */
const DEPTHS = [1, 2, 3, 4];
/** The files exactly `depth` folders below src/ within `base` (src/ROOM or src/index/ROOM). */
const filesAt = (base, below) => [`${base}/${'*/'.repeat(below)}*.ts`];

/**
 * Other rooms enter the index by a room's front door. Two modules may be named by path: the
 * search threads' door (it loads node:worker_threads, so index/search's door may not carry it) and the
 * symbol kinds (a leaf of constants the CLI's entry needs; the symbols door would load the room
 * into every command, `--version` included, since the bundle splits by module, not by name).
 */
const INDEX_DOORS = {
  regex: `(^|/)index/(?!search/threads/index\\.js$|symbols/types\\.js$)(${INDEX_ROOMS.join('|')})/(?!index\\.js$)`,
  message: "Import the index room's front door (index/ROOM/index.js); a dynamic import() may name one module.",
};

/** Other rooms enter mcp by its front door. */
const MCP_DOOR = { regex: '(^|/)mcp/(?!index\\.js$)', message: "Import mcp's front door (mcp/index.js)." };

const HTTP_ONLY_IN_TRANSPORTS = ['node:http', 'node:https'].map((name) => ({ name, message: 'Only src/transports speaks HTTP.' }));

/** The rule for the files of `room`: the rooms it may not import, and the index by its doors. */
function layer(room, files, patterns) {
  return {
    files,
    rules: { 'no-restricted-imports': ['error', { paths: room === 'transports' ? [] : HTTP_ONLY_IN_TRANSPORTS, patterns }] },
  };
}

/** The rules for the files of `room`, one per depth below src/. */
function roomRule(room) {
  const forbidden = ROOMS.filter((other) => other !== room && !(MAY_IMPORT[room] ?? ROOMS).includes(other));
  const mayImport = MAY_IMPORT[room] ?? ROOMS;
  return DEPTHS.map((depth) => {
    const patterns =
      forbidden.length > 0
        ? [{ regex: reaches(forbidden, depth), message: `src/${room} may import only from: ${MAY_IMPORT[room].join(', ') || 'nothing outside itself'}.` }]
        : [];
    if (mayImport.includes('index')) patterns.push(INDEX_DOORS);
    if (mayImport.includes('mcp')) patterns.push(MCP_DOOR);
    if (room === 'transports')
      patterns.push({ regex: '(^|/)workspace/(?!detect\\.js$)', message: 'src/transports may use only workspace/detect (the HTTP gate checks project_path).' });
    return layer(room, filesAt(`src/${room}`, depth - 1), patterns);
  });
}

/** Within the index: a room imports only the rooms before it (src/index/ROOM/…: the top rooms one folder further). */
const indexLayers = INDEX_ROOMS.flatMap((room, at) =>
  [0, 1, 2].map((below) =>
    layer('index', filesAt(`src/index/${room}`, below), [
      {
        regex: reaches(
          ROOMS.filter((other) => other !== 'index' && !MAY_IMPORT.index.includes(other)),
          below + 2,
        ),
        message: `src/index may import only from: ${MAY_IMPORT.index.join(', ')}.`,
      },
      ...(at < INDEX_ROOMS.length - 1
        ? [
            {
              regex: `^(\\.\\./){${below + 1}}(${INDEX_ROOMS.slice(at + 1).join('|')})/`,
              message: `index/${room} may import only the index rooms before it: ${INDEX_ROOMS.slice(0, at).join(', ') || 'none'}.`,
            },
          ]
        : []),
    ]),
  ),
);

export default tseslint.config(
  { ignores: ['build/', 'dist/', 'node_modules/', 'test/fixtures/', 'spec-fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { globals: globals.node } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Terminal and protocol text is matched byte by byte here.
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  ...['util', 'platform', 'jsonrpc', 'coordination', 'identity', 'mcp', 'record', 'conformance', 'workspace', 'transports', 'tools', 'team', 'cli'].flatMap(
    roomRule,
  ),
  layer('server', ['src/server.ts'], [INDEX_DOORS, MCP_DOOR]),
  ...roomRule('web'),
  // The page runs in the browser: it imports only its own files, and the server's web room never imports it (it serves the built file).
  {
    files: ['src/web/page/**/*.ts'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./|node:)', message: 'src/web/page runs in the browser: it imports only from src/web/page.' }] },
      ],
    },
  },
  layer('web', ['src/web/*.ts'], [{ regex: '^\\./page/', message: 'The server serves the built page (assets.ts); it never imports the page.' }]),
  ...indexLayers,
);
