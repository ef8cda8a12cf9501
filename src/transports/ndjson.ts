/**
 * Newline-delimited JSON framing for byte streams (MCP stdio): splits on `\n`, strips one trailing
 * `\r`, and refuses lines over a byte limit instead of buffering without bound. Pure: no streams.
 */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface LineDecoderOptions {
  maxLineBytes?: number;
  onLine(text: string): void;
  /** A line longer than the limit was skipped up to its newline; `bytes` counts what was seen of it. */
  onOversize(bytes: number): void;
  /** A line that is not valid UTF-8 (MCP messages MUST be UTF-8). */
  onInvalidEncoding(bytes: number): void;
}

export class LineDecoder {
  readonly #maxLineBytes: number;
  readonly #options: LineDecoderOptions;
  #chunks: Buffer[] = [];
  #length = 0;
  #skipping = false;

  constructor(options: LineDecoderOptions) {
    this.#options = options;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline >= 0 && this.#length === 0 && !this.#skipping) {
        // The whole line is in this chunk (the usual case): read it in place, no copy.
        if (newline - start <= this.#maxLineBytes) this.#emit(chunk, start, newline);
        else this.#options.onOversize(newline - start);
        start = newline + 1;
        continue;
      }
      const end = newline < 0 ? chunk.length : newline;
      this.#append(chunk.subarray(start, end));
      if (newline < 0) return;
      this.#finishLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.#length > 0 || this.#skipping) this.#finishLine();
  }

  #append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#length += piece.length;
    if (this.#skipping) return;
    if (this.#length > this.#maxLineBytes) {
      // Drop what we hold now; keep counting until the newline so the error can say how big it was.
      this.#skipping = true;
      this.#chunks = [];
      return;
    }
    this.#chunks.push(piece);
  }

  #finishLine(): void {
    const length = this.#length;
    const skipped = this.#skipping;
    const line = skipped ? undefined : Buffer.concat(this.#chunks, length);
    this.#chunks = [];
    this.#length = 0;
    this.#skipping = false;
    if (skipped) return this.#options.onOversize(length);
    this.#emit(line!, 0, length);
  }

  /** Hands on the line held in `bytes[start, end)`, without its trailing `\r`. */
  #emit(bytes: Buffer, start: number, end: number): void {
    if (end > start && bytes[end - 1] === CARRIAGE_RETURN) end--;
    const text = bytes.toString('utf8', start, end);
    // The fast decoder replaces bad bytes with U+FFFD; only then is the strict one worth running
    // (the replacement character may also have been sent on purpose, which is valid).
    if (text.includes('\uFFFD') && !isValidUtf8(bytes.subarray(start, end))) return this.#options.onInvalidEncoding(end - start);
    // Blank lines carry no message; JSON-RPC has nothing to answer them with.
    if (text.trim() === '') return;
    this.#options.onLine(text);
  }
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
