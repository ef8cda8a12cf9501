/**
 * MCP over stdio: one session, newline-delimited JSON on stdin/stdout. Stdout carries MCP
 * messages and nothing else; diagnostics go to the logger (stderr). EOF on stdin lets running
 * requests finish (bounded), then ends the session and stdout.
 */
import { LAUNCHER } from '../caller.js';
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { InvalidRequestError, ParseError, type PeerOptions } from '../jsonrpc/index.js';
import { silentLogger, type Logger } from '../platform/log.js';
import type { McpServer, McpSession, MessageContext } from '../mcp/index.js';
import { DEFAULT_MAX_LINE_BYTES, encodeLine, LineDecoder } from './ndjson.js';

/** How long requests still running at EOF may take to answer before the session is closed. */
const DEFAULT_EOF_GRACE_MS = 5_000;

export interface StdioOptions {
  input: Readable;
  output: Writable;
  logger?: Logger;
  maxLineBytes?: number;
  eofGraceMs?: number;
  tap?: (sessionId: string) => PeerOptions['tap'];
  /**
   * The file descriptor behind `output` (1 for stdout). While the stream holds nothing, answers
   * are written to it directly: one system call without the stream's machinery around it (the
   * figure is in bench/history/2026-11.md). What the descriptor does not
   * take at once (it is non-blocking) goes through the stream, after what was written.
   */
  outputFd?: number;
}

export interface StdioConnection {
  session: McpSession;
  sessionId: string;
  /** Resolves once the session is closed and stdout has been flushed. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export function serveStdio(server: McpServer, options: StdioOptions): StdioConnection {
  const { input, output, outputFd } = options;
  const logger = options.logger ?? silentLogger;
  const sessionId = `stdio-${randomUUID()}`;
  const extra: MessageContext = { transport: 'stdio', sessionId, caller: LAUNCHER };
  // Messages still being handled, so that EOF can wait for their answers.
  let inflight = 0;
  let onIdle: (() => void) | undefined;
  const settled = (): void => {
    if (--inflight === 0) onIdle?.();
  };

  // Messages sent in one turn of the event loop leave in one write: with many requests in
  // flight, a write (a system call) per answer was the largest single cost of the stdio path.
  let pending: string[] = [];
  let flushScheduled = false;
  const flush = (): void => {
    flushScheduled = false;
    if (pending.length === 0) return;
    const chunk = pending.length === 1 ? pending[0]! : pending.join('');
    pending = [];
    if (output.writableEnded || output.destroyed) return;
    if (outputFd !== undefined && output.writableLength === 0) return writeDirect(outputFd, chunk);
    writeStream(chunk);
  };
  const writeStream = (chunk: string | Buffer): void => {
    // Node keeps writes in order; when stdout backs up we stop reading stdin until it drains.
    if (!output.write(chunk)) {
      input.pause();
      output.once('drain', outputOnDrain);
    }
  };
  const writeDirect = (fd: number, chunk: string): void => {
    const bytes = Buffer.from(chunk, 'utf8');
    let written: number;
    try {
      written = writeSync(fd, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return outputOnError(error as Error);
      written = 0;
    }
    if (written < bytes.length) writeStream(bytes.subarray(written));
  };
  const send: PeerOptions['send'] = (payload) => {
    if (output.writableEnded || output.destroyed) return;
    pending.push(encodeLine(payload));
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  };
  const session = server.createSession({ send, tap: options.tap?.(sessionId), transport: 'stdio' });

  const decoder = new LineDecoder({
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    onLine: (text) => {
      inflight++;
      session.receiveText(text, extra).then(settled, (error: unknown) => {
        logger.error('Failed to handle a message', error);
        settled();
      });
    },
    onInvalidEncoding: (bytes) => {
      session.peer.rejectMalformed(new ParseError('Parse error: message is not valid UTF-8', { bytes }));
    },
    onOversize: (bytes) => {
      const limit = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
      logger.warning(`Dropped a ${bytes}-byte message: over the ${limit}-byte line limit`);
      session.peer.rejectMalformed(new InvalidRequestError(`Invalid request: message of ${bytes} bytes exceeds the ${limit}-byte limit`, { bytes, limit }));
    },
  });

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing = false;

  const close = async (): Promise<void> => {
    if (closing) return closed;
    closing = true;
    input.off('data', inputOnData);
    input.off('end', inputOnEnd);
    input.off('error', inputOnError);
    // Stop reading so that an open stdin (SIGTERM case) does not keep the process alive.
    input.pause();
    if ('unref' in input && typeof input.unref === 'function') input.unref();
    session.close();
    flush(); // what was sent before the close still leaves, first
    output.off('error', outputOnError);
    output.off('close', outputOnClose);
    if (output.writableEnded || output.destroyed) resolveClosed();
    else output.end(() => resolveClosed());
    return closed;
  };

  function outputOnDrain(): void {
    if (!closing) input.resume();
  }
  function inputOnData(chunk: Buffer | string): void {
    decoder.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  }
  function inputOnEnd(): void {
    decoder.end();
    const grace = options.eofGraceMs ?? DEFAULT_EOF_GRACE_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, grace)));
    const idle = new Promise<void>((resolve) => (inflight === 0 ? resolve() : (onIdle = resolve)));
    void Promise.race([idle, timeout]).then(() => {
      clearTimeout(timer);
      logger.info('stdin closed; shutting down');
      return close();
    });
  }
  function inputOnError(error: Error): void {
    logger.error('stdin failed', error);
    void close();
  }
  function outputOnError(error: Error): void {
    // The client went away (EPIPE): nobody is left to answer.
    logger.warning('stdout failed; closing the session', error.message);
    void close();
  }
  function outputOnClose(): void {
    // Destroyed under us without an error (a child's stdin when the child exits): the same end,
    // instead of answers dropped on the floor and a session that never closes.
    if (closing) return;
    logger.warning('stdout closed; closing the session');
    void close();
  }

  input.on('data', inputOnData);
  input.on('end', inputOnEnd);
  input.on('error', inputOnError);
  output.on('error', outputOnError);
  output.on('close', outputOnClose);
  return { session, sessionId, closed, close };
}
