/**
 * The server's own diagnostics. They always go to stderr: on stdio, stdout belongs to MCP
 * messages alone (transports §stdio).
 */
import { withoutCredentials } from '../util/credentials.js';

export const LOCAL_LOG_LEVELS = ['debug', 'info', 'warning', 'error', 'silent'] as const;
export type LocalLogLevel = (typeof LOCAL_LOG_LEVELS)[number];

export interface Logger {
  debug(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warning(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warning() {}, error() {} };

export function createLogger(threshold: LocalLogLevel, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const rank = LOCAL_LOG_LEVELS.indexOf(threshold);
  const emit = (level: Exclude<LocalLogLevel, 'silent'>) => (message: string, detail?: unknown) => {
    if (LOCAL_LOG_LEVELS.indexOf(level) < rank) return;
    const suffix = detail === undefined ? '' : ` ${formatDetail(detail)}`;
    write(withoutCredentials(`${new Date().toISOString()} sextant ${level}: ${message}${suffix}\n`));
  };
  return { debug: emit('debug'), info: emit('info'), warning: emit('warning'), error: emit('error') };
}

function formatDetail(detail: unknown): string {
  if (detail instanceof Error) return detail.stack ?? `${detail.name}: ${detail.message}`;
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}
