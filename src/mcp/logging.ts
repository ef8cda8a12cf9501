/** MCP log levels, RFC 5424 severities from least to most severe (server/utilities/logging). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Until a client calls logging/setLevel it hears `info` and above. */
export const DEFAULT_CLIENT_LOG_LEVEL: LogLevel = 'info';

export function isLogLevel(value: unknown): value is LogLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(value);
}

export function isAtLeast(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
