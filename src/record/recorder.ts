/** `--record FILE`: appends every message a session receives and sends, as JSONL (see format.ts). */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { TapEntry } from '../jsonrpc/index.js';
import type { Direction, MessageEntry } from './format.js';

type Tap = (direction: Direction, entry: TapEntry) => void;

/** The recording file cannot be opened: the server does not start (a recording was asked for). */
class RecordFileError extends Error {
  readonly code = 'SEXTANT_ERR_RECORD_FILE';
  constructor(file: string, cause: unknown) {
    super(
      `Cannot record to ${file}: ${(cause as NodeJS.ErrnoException).code ?? ''} ${cause instanceof Error ? cause.message : String(cause)}`.replace(
        /: {2}/,
        ': ',
      ),
    );
    this.name = 'RecordFileError';
  }
}

export interface Recorder {
  (session: string): Tap;
  close(): void;
}

/**
 * Returns a tap factory: one tap per session. The file is opened now (a path that cannot be
 * written is an error before anything is served, not a server that answers nothing). Appends
 * synchronously so that a crash or a kill loses nothing already exchanged; recording is a
 * diagnostic mode, not the fast path. A write that fails later (a full disk) stops the
 * recording, said once through `onError`; the messages themselves still flow.
 */
export function createRecorder(file: string, options: { now?: () => Date; onError?: (error: unknown) => void } = {}): Recorder {
  const now = options.now ?? (() => new Date());
  let fd: number | undefined;
  try {
    fd = openSync(file, 'a');
  } catch (error) {
    throw new RecordFileError(file, error);
  }
  const factory = ((session: string): Tap =>
    (dir, entry) => {
      if (fd === undefined) return;
      const line: MessageEntry = { dir, time: now().toISOString(), session, ...entry };
      try {
        writeSync(fd, `${JSON.stringify(line)}\n`);
      } catch (error) {
        factory.close();
        options.onError?.(error);
      }
    }) as Recorder;
  factory.close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return factory;
}
