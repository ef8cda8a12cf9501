/**
 * Connections, before any request: a cap on how many are open at once, and a deadline for the
 * first request on each. Without them one client holding silent sockets uses up the process's
 * file descriptors, and then nobody is served, index reads included.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../platform/log.js';

/** At most one log line per this long about refused connections (a flood would flood the log). */
const DROP_LOG_INTERVAL_MS = 10_000;

export interface ConnectionLimits {
  maxConnections: number;
  /** How long a new connection may stay silent before its first request arrives (the header timeout). */
  silentMs: number;
  logger: Logger;
}

export function boundConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  let lastDropLog = -Infinity;
  server.on('drop', () => {
    const now = Date.now();
    if (now - lastDropLog < DROP_LOG_INTERVAL_MS) return;
    lastDropLog = now;
    limits.logger.warning(`At the limit of ${limits.maxConnections} open connections: new ones are refused (--max-connections)`);
  });

  // Node's header timeout starts with a request's first byte: a connection that never sends one
  // is never timed. Here it gets the same time to send its first byte; one that has begun a
  // request is Node's to time (408 for headers that never finish).
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, limits.silentMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
