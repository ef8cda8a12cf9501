/**
 * The JSONL format of recordings and spec fixtures: one entry a line, each a message (or an
 * unreadable raw line) with its direction, time and session. A `meta` line may describe the file.
 */
export type Direction = 'in' | 'out';

export interface MessageEntry {
  dir: Direction;
  time?: string;
  session: string;
  message?: unknown;
  /** Text that was not JSON, kept verbatim so a replay can send it again. */
  raw?: string;
}

interface MetaEntry {
  meta: {
    description?: string;
    /** Which server profile the exchange needs (e.g. `conformance`). */
    profile?: string;
    /** A fixture repository (test/fixtures/NAME) the server must have as its project, freshly copied. */
    project?: string;
    source?: string;
  };
}

export type RecordEntry = MessageEntry | MetaEntry;

class RecordingFormatError extends Error {
  readonly code = 'SEXTANT_ERR_RECORDING_FORMAT';
  constructor(message: string) {
    super(message);
    this.name = 'RecordingFormatError';
  }
}

export function parseRecording(text: string, source = 'recording'): RecordEntry[] {
  const entries: RecordEntry[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new RecordingFormatError(`${source}:${index + 1}: not valid JSON`);
    }
    if (typeof value !== 'object' || value === null) throw new RecordingFormatError(`${source}:${index + 1}: expected an object`);
    const entry = value as Record<string, unknown>;
    if ('meta' in entry) return void entries.push(entry as unknown as MetaEntry);
    if (entry.dir !== 'in' && entry.dir !== 'out') throw new RecordingFormatError(`${source}:${index + 1}: "dir" must be "in" or "out"`);
    if (typeof entry.session !== 'string') throw new RecordingFormatError(`${source}:${index + 1}: "session" must be a string`);
    if (!('message' in entry) && typeof entry.raw !== 'string') {
      throw new RecordingFormatError(`${source}:${index + 1}: needs "message" or "raw"`);
    }
    entries.push(entry as unknown as MessageEntry);
  });
  return entries;
}

export function isMessageEntry(entry: RecordEntry): entry is MessageEntry {
  return 'dir' in entry;
}
