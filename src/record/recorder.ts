/** `--record FILE`: appends every message a session receives and sends, as JSONL (see format.ts). */
import { appendFileSync } from 'node:fs';
import type { TapEntry } from '../jsonrpc/index.js';
import type { Direction, MessageEntry } from './format.js';

export type Tap = (direction: Direction, entry: TapEntry) => void;

/**
 * Returns a tap factory: one tap per session. Appends synchronously so that a crash or a kill
 * loses nothing already exchanged; recording is a diagnostic mode, not the fast path.
 */
export function createRecorder(file: string, now: () => Date = () => new Date()): (session: string) => Tap {
  return (session) => (dir, entry) => {
    const line: MessageEntry = { dir, time: now().toISOString(), session, ...entry };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
}
