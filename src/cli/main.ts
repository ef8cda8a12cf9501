#!/usr/bin/env node
/** The `sextant` command line: parses, then delegates to serve/replay. */
import { fstatSync } from 'node:fs';
import yargs, { type ArgumentsCamelCase, type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { LOCAL_LOG_LEVELS, type LocalLogLevel } from '../platform/log.js';
import { KEY_ACTIONS, PROFILES, PROJECT_ACTIONS, TOKEN_ACTIONS } from './choices.js';
import { runServe, serveOptions } from './serve-command.js';
import { count, UsageError } from './usage.js';
import { VERSION } from '../version.js';
import { WORKER_ROLE_GLOBAL } from '../platform/worker-role.js';
import type { Output } from './output.js';
import type { searchCommand, symbolsCommand } from './lookup-commands.js';
// By path, not the symbols door: the entry of every command must not load the symbol room.
import { SYMBOL_KINDS } from '../index/symbols/types.js';

/** The index commands, loaded by the command that runs (`--version` and `--help` load none of the index). */
const commands = (): Promise<typeof import('./index-commands.js')> => import('./index-commands.js');
/** The commands that only read an index, without the indexing code. */
const lookups = (): Promise<typeof import('./lookup-commands.js')> => import('./lookup-commands.js');
const homeCommands = (): Promise<typeof import('./home-commands.js')> => import('./home-commands.js');

function terminal(): Output {
  let toPipe = false;
  try {
    // A shell's `|` is a FIFO; a parent process's pipe (Node's spawn) is a socket pair.
    const stdout = fstatSync(1);
    toPipe = stdout.isFIFO() || stdout.isSocket();
  } catch {
    // no stdout at all
  }
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    isTTY: process.stdout.isTTY === true,
    errIsTTY: process.stderr.isTTY === true,
    toPipe,
  };
}

/**
 * Every command exits like rg: 0 found (or done), 1 nothing found (or, for replay, differences),
 * 2 failed, with the reason on stderr. The README has the table.
 */
async function exitCodeOf(run: () => number | Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    process.stderr.write(`sextant: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

/** A reader that stopped reading (`sextant search x | head -1`) ends the command quietly, as rg does. */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

/**
 * What a command does, run once yargs has parsed and checked the arguments rather than by yargs:
 * after each handler it runs, yargs lays out the running command's help for a failure message
 * (ours replaces it), 4–5 ms of a 65 ms search. By command name; the default command (serve)
 * keeps its handler, for which yargs lays out nothing.
 */
const handlers = new Map<string, (args: object) => Promise<void>>();

/** The builder of command `name`, its handler kept for after the parse (typed by the builder). */
function later<T, U>(name: string, builder: (y: Argv<T>) => Argv<U>, handler: (args: ArgumentsCamelCase<U>) => Promise<void>): (y: Argv<T>) => Argv<U> {
  handlers.set(name, handler as (args: object) => Promise<void>);
  return builder;
}

/** A --lang value as the index names languages (any case), or a usage error listing them: a typo must not read as "no matches". */
async function knownLanguage(value: string): Promise<string> {
  const { KNOWN_LANGUAGES } = await import('../index/files/languages.js');
  const language = value.toLowerCase();
  if (KNOWN_LANGUAGES.includes(language)) return language;
  throw new UsageError(`unknown language "${value}" for --lang; known: ${KNOWN_LANGUAGES.join(', ')}`);
}

/** Says what went wrong, with usage help for yargs' own complaints, and exits 2. */
function usageFailure(message: string | undefined, error: Error | undefined): never {
  if (error) process.stderr.write(`sextant: ${error.message}\n`);
  else process.stderr.write(`sextant: ${message}\nRun "sextant --help" for usage.\n`);
  process.exit(2);
}

export async function main(argv: string[]): Promise<void> {
  quietOnClosedPipe(process.stdout);
  const parsed = await yargs(argv)
    // Flags keep their one spelling: an unknown --some-flag is reported once, not also as someFlag.
    .parserConfiguration({ 'camel-case-expansion': false })
    .scriptName('sextant')
    .usage('$0 <command> [options]')
    .option('log-level', {
      choices: LOCAL_LOG_LEVELS,
      default: 'info' as LocalLogLevel,
      describe: 'What the server logs to stderr',
    })
    .command(
      ['serve', '$0'],
      'Serve MCP to one client (the default command)',
      (y) => serveOptions(y, argv),
      (args) => runServe(args),
    )
    .command(
      'replay <file>',
      'Re-run a recorded session against this server and report every difference',
      later(
        'replay',
        (y) =>
          y
            .positional('file', { type: 'string', demandOption: true, describe: 'A JSONL recording (from --record or spec-fixtures/)' })
            .option('profile', { choices: PROFILES, describe: 'Server profile (default: the recording\'s meta line, else "default")' }),
        async (args) => {
          const { replayCommand } = await import('./replay.js');
          const options: Parameters<typeof replayCommand>[0] = { file: args.file, write: (line) => process.stdout.write(line), profile: args.profile };
          process.exitCode = await exitCodeOf(() => replayCommand(options));
        },
      ),
    )
    .command(
      'index [path]',
      'Build the search index of a project (default: the current directory)',
      later(
        'index',
        (y) =>
          y
            .positional('path', { type: 'string', default: '.' })
            .option('force', { type: 'boolean', default: false, describe: 'Rebuild even an index of another format' }),
        async (args) => {
          process.exitCode = await exitCodeOf(async () => (await commands()).indexCommand(args.path, terminal(), args.force));
        },
      ),
    )
    .command(
      'sync [path]',
      'Bring the index up to date: re-read only new and changed files',
      later(
        'sync',
        (y) => y.positional('path', { type: 'string', default: '.' }),
        async (args) => {
          process.exitCode = await exitCodeOf(async () => (await commands()).syncCommand(args.path, terminal()));
        },
      ),
    )
    .command(
      'search <query> [path]',
      'Search an indexed project; output like rg: path:line:col: text',
      later(
        'search',
        (y) =>
          y
            .positional('query', { type: 'string', demandOption: true })
            .positional('path', { type: 'string', default: '.' })
            .option('regex', { type: 'boolean', default: false, describe: 'QUERY is a (JavaScript) regular expression' })
            .option('case-sensitive', { type: 'boolean', default: false, describe: 'Match case exactly (default: ignore case)' })
            .option('path-glob', { alias: 'glob', type: 'string', describe: 'Only paths matching this glob' })
            .option('lang', { type: 'string', describe: 'Only files of this language' })
            .option('limit', { requiresArg: true, default: 100, coerce: count('limit', 1), describe: 'Stop after this many matches (a whole number)' })
            .option('context', { requiresArg: true, default: 0, describe: 'Lines of context around each match (a whole number)', coerce: count('context', 0) })
            .option('rank', {
              type: 'boolean',
              default: false,
              describe: "search_code's order (definitions first, tests and vendored code last) instead of path order; not streamed",
            })
            .option('json', {
              type: 'boolean',
              default: false,
              describe: 'One JSON document: the matches, whether the search stopped at --limit (truncated), and its statistics',
            })
            .option('jsonl', {
              type: 'boolean',
              default: false,
              describe: 'JSON Lines instead: a {"type":"match"} line per match as it is found, then a {"type":"summary"} line',
            }),
        async (args) => {
          if (args.query === '') throw new UsageError('the query is empty: give the text (or, with --regex, the pattern) to search for');
          if (args.json && args.jsonl) throw new UsageError('--json and --jsonl are two forms of the same output: give one');
          const query: Parameters<typeof searchCommand>[1] = {
            pattern: args.query,
            regex: args.regex,
            caseSensitive: args['case-sensitive'],
            limit: args.limit,
            context: args.context,
            json: args.json,
            jsonl: args.jsonl,
            rank: args.rank,
          };
          if (args['path-glob']) query.path = args['path-glob'];
          if (args.lang !== undefined) query.language = await knownLanguage(args.lang);
          process.exitCode = await exitCodeOf(async () => (await lookups()).searchCommand(args.path, query, terminal()));
        },
      ),
    )
    .command(
      'symbols <name> [path]',
      'Find symbols by name: exact, case-insensitive, prefix or fuzzy (camelCase and snake_case aware)',
      later(
        'symbols',
        (y) =>
          y
            .positional('name', { type: 'string', demandOption: true })
            .positional('path', { type: 'string', default: '.' })
            .option('kind', { choices: SYMBOL_KINDS, describe: 'Only symbols of this kind' })
            .option('limit', { requiresArg: true, default: 50, coerce: count('limit', 1), describe: 'At most this many symbols (a whole number)' })
            .option('json', { type: 'boolean', default: false, describe: 'One JSON document: {"symbols": [...]}' }),
        async (args) => {
          if (args.name === '') throw new UsageError('the name is empty: give a symbol name (or part of one) to look up');
          const options: Parameters<typeof symbolsCommand>[2] = { limit: args.limit, json: args.json, kind: args.kind };
          process.exitCode = await exitCodeOf(async () => (await lookups()).symbolsCommand(args.name, args.path, options, terminal()));
        },
      ),
    )
    .command(
      'outline <file>',
      'List the symbols of one source file (functions, classes, methods...) with their lines',
      later(
        'outline',
        (y) =>
          y
            .positional('file', { type: 'string', demandOption: true })
            .option('json', { type: 'boolean', default: false, describe: 'One JSON document: the file, its language and its symbols' }),
        async (args) => {
          process.exitCode = await exitCodeOf(async () => (await commands()).outlineCommand(args.file, args.json, terminal()));
        },
      ),
    )
    .command(
      'list',
      'List the indexes under SEXTANT_HOME: each project, its size on disk, and whether its folder still exists',
      later(
        'list',
        (y) => y.option('json', { type: 'boolean', default: false, describe: 'One JSON document: {"home", "indexes": [...], "diskBytes"}' }),
        async (args) => {
          process.exitCode = await exitCodeOf(async () => (await homeCommands()).listCommand(args.json, terminal()));
        },
      ),
    )
    .command(
      'remove [path]',
      "Remove a project's index (never the project itself); --gone: every index whose project folder no longer exists",
      later(
        'remove',
        (y) =>
          y
            .positional('path', { type: 'string', describe: 'The project whose index goes' })
            .option('gone', { type: 'boolean', default: false, describe: 'Remove the indexes of projects whose folder is gone' }),
        async (args) => {
          process.exitCode = await exitCodeOf(async () => (await homeCommands()).removeCommand(args.path, args.gone, terminal()));
        },
      ),
    )
    .command(
      'project <action> [name] [who]',
      'Projects served by name: add (--git URL [--ref BRANCH], or --folder PATH), list, remove, refresh; allow and disallow WHO',
      later(
        'project',
        (y) =>
          y
            .positional('action', { choices: PROJECT_ACTIONS, demandOption: true })
            .positional('name', { type: 'string', describe: 'The project: a letter or digit, then letters, digits, ".", "_" or "-" (64 at most)' })
            .option('git', { type: 'string', describe: 'add: the git remote to serve (URL, or a local path)' })
            .option('ref', { type: 'string', describe: "add: the branch or tag to follow (default: the remote's default branch)" })
            .positional('who', { type: 'string', describe: 'allow, disallow: user:SUB, group:NAME, token:NAME or everyone' })
            .option('folder', { type: 'string', describe: 'add: a folder of this machine to serve by name' })
            .option('allow', { type: 'string', array: true, describe: 'add: who may see it once identities are configured (repeatable; see allow)' })
            .option('json', { type: 'boolean', default: false, describe: 'list: one JSON document' })
            .option('database-url', { type: 'string', describe: 'The team database (PostgreSQL) instead of SEXTANT_HOME. Env: SEXTANT_DATABASE_URL' }),
        async (args) => {
          const { projectCommand } = await import('./project-commands.js');
          const options: Parameters<typeof projectCommand>[0] = {
            action: args.action,
            name: args.name,
            git: args.git,
            ref: args.ref,
            folder: args.folder,
            who: args.who,
            allow: args.allow,
            json: args.json,
            databaseUrl: args['database-url'] ?? (process.env.SEXTANT_DATABASE_URL || undefined),
          };
          process.exitCode = await exitCodeOf(() => projectCommand(options, terminal()));
        },
      ),
    )
    .command(
      'token <action> [name]',
      'Named credentials for the HTTP server (a request with "Authorization: Bearer SECRET" is token:NAME): create, list, revoke',
      later(
        'token',
        (y) =>
          y
            .positional('action', { choices: TOKEN_ACTIONS, demandOption: true })
            .positional('name', { type: 'string', describe: 'The token: a letter or digit, then letters, digits, ".", "_" or "-" (64 at most)' })
            .option('admin', { type: 'boolean', default: false, describe: 'create: it sees every project, and may ask for a refresh' })
            .option('json', { type: 'boolean', default: false, describe: 'list: one JSON document' })
            .option('database-url', { type: 'string', describe: 'The team database (PostgreSQL) instead of SEXTANT_HOME. Env: SEXTANT_DATABASE_URL' }),
        async (args) => {
          const { tokenCommand } = await import('./token-commands.js');
          const options: Parameters<typeof tokenCommand>[0] = {
            action: args.action,
            name: args.name,
            admin: args.admin,
            json: args.json,
            databaseUrl: args['database-url'] ?? (process.env.SEXTANT_DATABASE_URL || undefined),
          };
          process.exitCode = await exitCodeOf(() => tokenCommand(options, terminal()));
        },
      ),
    )
    .command(
      'keys <action>',
      'The keys that seal multi round-trip state, shared by every server of the home or team: rotate',
      later(
        'keys',
        (y) =>
          y
            .positional('action', { choices: KEY_ACTIONS, demandOption: true })
            .option('database-url', { type: 'string', describe: 'The team database (PostgreSQL) instead of SEXTANT_HOME. Env: SEXTANT_DATABASE_URL' }),
        async (args) => {
          const { rotateKeys } = await import('./keys-command.js');
          const databaseUrl = args['database-url'] ?? (process.env.SEXTANT_DATABASE_URL || undefined);
          process.exitCode = await exitCodeOf(() => rotateKeys(databaseUrl, terminal()));
        },
      ),
    )
    .command(
      'status [path]',
      'Show what is indexed for a project, and any interrupted job',
      later(
        'status',
        (y) =>
          y
            .positional('path', { type: 'string', default: '.' })
            .option('json', { type: 'boolean', default: false, describe: 'One JSON document (exit 2 still, when the project is not indexed)' }),
        async (args) => {
          process.exitCode = await exitCodeOf(async () => (await commands()).statusCommand(args.path, args.json, terminal()));
        },
      ),
    )
    .example('$0 index ~/src/app', 'index a project (once; the server keeps it current)')
    .example('$0 search "func main" ~/src/app --lang go', 'search it like rg')
    .example('$0 symbols getUserById ~/src/app', 'find a symbol by name')
    .example('$0 serve --project-from-cwd --auto-index', 'serve MCP over stdio to the client that launched it')
    .example('$0 serve --transport http --port 3000', 'serve Streamable HTTP, SSE and WebSocket on one port')
    .epilogue(
      [
        'Server options: sextant serve --help. Exit codes: 0 found or done, 1 nothing found, 2 an error (on stderr).',
        '',
        'Environment:',
        '  SEXTANT_PROJECT         the default project of a server (an absolute path)',
        '  SEXTANT_HOME            where indexes and task files live (else $XDG_CACHE_HOME/sextant, else ~/.cache/sextant)',
        '  SEXTANT_TRANSPORT       --transport of serve',
        '  SEXTANT_MCP_PORT        --port of serve',
        '  SEXTANT_AUTH_TOKEN      --auth-token of serve',
        '  SEXTANT_MAX_FILE_BYTES  files larger than this are not indexed (default 16 MiB)',
        '  SEXTANT_STATE_KEY       the key that seals 2026-07-28 request state, shared by servers of one home',
        '  SEXTANT_DATABASE_URL    the team database (PostgreSQL) of serve and project',
      ].join('\n'),
    )
    .strict()
    // Help lines are not wrapped to the terminal's width: wrapping was 20 ms of every command
    // when yargs still laid out the running command's help after each (see `later`).
    .wrap(null)
    .version(VERSION)
    .alias('v', 'version')
    .help()
    .alias('h', 'help')
    .fail((message, error) => usageFailure(message, error ?? undefined))
    .parseAsync();
  const run = handlers.get(String(parsed._[0]));
  if (run) await run(parsed).catch((error: unknown) => (error instanceof UsageError ? usageFailure(undefined, error) : Promise.reject(error)));
}

/**
 * In the single executable every worker thread runs this whole bundle (src/platform/runtime.ts): a
 * worker's module is loaded lazily by its command, so a worker loads it here, by the role the
 * worker's boot code marked it with, and the module starts the worker. Everywhere else a worker
 * runs its own module's file, and this file is only ever the CLI. (Reading the mark instead of
 * node:worker_threads keeps that module out of the CLI's start-up.)
 */
const WORKER_MODULES: Record<string, () => Promise<unknown>> = {
  'sextant-symbols': () => import('../index/symbols/build.js'),
  'sextant-symbols-job': () => import('../index/build/symbol-phase.js'),
  'sextant-index-extract': () => import('../index/build/text-extract.js'),
  'sextant-search': () => import('../index/search/threads/index.js'),
};

const workerRole = (globalThis as Record<string, unknown>)[WORKER_ROLE_GLOBAL];
if (typeof workerRole === 'string') void WORKER_MODULES[workerRole]?.();
else {
  const argv = hideBin(process.argv);
  // `--version` alone is answered without building the parser: a third of its time (yargs prints the same).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) process.stdout.write(`${VERSION}\n`);
  else {
    main(argv).catch((error: unknown) => {
      process.stderr.write(`sextant: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    });
  }
}
