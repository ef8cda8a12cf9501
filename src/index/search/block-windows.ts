/**
 * The parts of a file read from disk that a search must look at, when the file was indexed in
 * blocks and only some of them hold every trigram the query needs. The index keeps each block's
 * first line, not its byte offset; but blocks are cut by one rule over the file's bytes
 * (trigrams.ts `blockEnd`), so a block's bytes are found again with one newline lookup per
 * block, and its first line comes from the index: no newline before a window is counted.
 */
import { blockEnd, DEFAULT_BLOCK_BYTES } from '../text/trigrams.js';

/** The bytes [start, end) of whole lines, the first of which is the 0-based `line`. */
export interface ByteWindow {
  start: number;
  end: number;
  line: number;
}

/**
 * The byte ranges of `bytes` that the candidate `blocks` (ascending) cover, neighbours joined;
 * `startLines` is the index's first line of each block after the first. Undefined when the
 * bytes do not cut into as many blocks as were indexed (the file changed since): search it whole.
 * The caller checks the size first; a file edited to the same size is as stale as its postings.
 */
export function byteWindows(
  bytes: Uint8Array,
  startLines: readonly number[],
  blocks: readonly number[],
  blockBytes = DEFAULT_BLOCK_BYTES,
): ByteWindow[] | undefined {
  const windows: ByteWindow[] = [];
  let start = 0;
  let next = 0;
  for (let block = 0; block <= startLines.length; block++) {
    if (start >= bytes.length) return undefined;
    const end = blockEnd(bytes, start, blockBytes);
    if (next < blocks.length && blocks[next] === block) {
      const previous = windows.at(-1);
      if (previous && previous.end === start) previous.end = end;
      else windows.push({ start, end, line: block === 0 ? 0 : startLines[block - 1]! });
      next++;
    }
    start = end;
  }
  return start === bytes.length && next === blocks.length ? windows : undefined;
}
