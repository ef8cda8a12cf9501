/** `sextant serve`: wires a server to the chosen transport and runs until the client goes away. */
import type { Logger } from '../log.js';
import { createRecorder } from '../record/recorder.js';
import { createSextantServer, type Profile } from '../tools/index.js';
import { serveStdio } from '../transports/stdio.js';

export const TRANSPORTS = ['stdio'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface ServeOptions {
  transport: Transport;
  profile: Profile;
  record?: string;
  logger: Logger;
}

export async function serve(options: ServeOptions): Promise<void> {
  const { logger } = options;
  const server = createSextantServer({ profile: options.profile, logger });
  const stdioOptions: Parameters<typeof serveStdio>[1] = { input: process.stdin, output: process.stdout, logger };
  if (options.record) {
    stdioOptions.tap = createRecorder(options.record);
    logger.info(`Recording every message to ${options.record}`);
  }
  const connection = serveStdio(server, stdioOptions);
  logger.info(`Sextant ${server.identity.version} serving MCP over stdio (profile: ${options.profile}, tools: ${server.registries.tools.names().join(', ')})`);

  const onSignal = (signal: NodeJS.Signals): void => {
    logger.info(`Received ${signal}; shutting down`);
    void connection.close();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  await connection.closed;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
}
