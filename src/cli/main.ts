#!/usr/bin/env node
/** The `sextant` command line: parses, then delegates to serve/replay. */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { createLogger, LOCAL_LOG_LEVELS, type LocalLogLevel } from '../log.js';
import { PROFILES, type Profile } from '../tools/index.js';
import { VERSION } from '../version.js';
import { replayCommand } from './replay.js';
import { serve, TRANSPORTS, type Transport } from './serve.js';

export async function main(argv: string[]): Promise<void> {
  await yargs(argv)
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
      (y) =>
        y
          .option('transport', { choices: TRANSPORTS, default: 'stdio' as Transport, describe: 'How the client connects' })
          .option('profile', { choices: PROFILES, default: 'default' as Profile, describe: 'Which tools to serve' })
          .option('record', { type: 'string', describe: 'Append every message received and sent to this JSONL file' }),
      async (args) => {
        const options: Parameters<typeof serve>[0] = {
          transport: args.transport,
          profile: args.profile,
          logger: createLogger(args['log-level']),
        };
        if (args.record !== undefined) options.record = args.record;
        await serve(options);
      },
    )
    .command(
      'replay <file>',
      'Re-run a recorded session against this server and report every difference',
      (y) =>
        y
          .positional('file', { type: 'string', demandOption: true, describe: 'A JSONL recording (from --record or spec-fixtures/)' })
          .option('profile', { choices: PROFILES, describe: 'Server profile (default: the recording\'s meta line, else "default")' }),
      async (args) => {
        const options: Parameters<typeof replayCommand>[0] = { file: args.file, write: (line) => process.stdout.write(line) };
        if (args.profile !== undefined) options.profile = args.profile;
        process.exitCode = await replayCommand(options);
      },
    )
    .strict()
    .version(VERSION)
    .alias('v', 'version')
    .help()
    .alias('h', 'help')
    .fail((message, error) => {
      if (error) {
        process.stderr.write(`sextant: ${error.message}\n`);
        process.exit(1);
      }
      process.stderr.write(`sextant: ${message}\nRun "sextant --help" for usage.\n`);
      process.exit(2);
    })
    .parseAsync();
}

main(hideBin(process.argv)).catch((error: unknown) => {
  process.stderr.write(`sextant: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
