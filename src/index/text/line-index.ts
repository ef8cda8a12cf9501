/**
 * Lines of a text by offset: where each line starts (a line ends at `\n`), and the line holding
 * an offset by binary search. Used by the content cache (a match's line number) and by symbol
 * extraction, whose 1-based lines and columns (UTF-16 code units) are tree-sitter's: positions
 * come from indices rather than from tree-sitter nodes because a skeleton's nodes
 * (symbols/skeleton/c-skeleton.ts) sit on other rows than the source's, and because each node position
 * read crosses into wasm.
 */

/** Offsets where each line starts. */
export function lineStartsOf(text: string): Int32Array {
  let count = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  const starts = new Int32Array(count);
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts[line++] = at + 1;
  return starts;
}

/** The 0-based line holding `offset`, given the line starts. */
export function lineAt(starts: Int32Array, offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** 1-based lines and columns of indices into one source, its line starts found on first use. */
export class LineIndex {
  readonly #source: string;
  #starts: Int32Array | undefined;
  /** The last line found: lookups come in order, mostly. */
  #last = 0;

  constructor(source: string) {
    this.#source = source;
  }

  line(index: number): number {
    return this.#lineIndex(index) + 1;
  }

  column(index: number): number {
    return index - this.#starts![this.#lineIndex(index)]! + 1;
  }

  #lineIndex(index: number): number {
    const starts = (this.#starts ??= lineStartsOf(this.#source));
    const last = this.#last;
    if (starts[last]! <= index && (last + 1 >= starts.length || starts[last + 1]! > index)) return last;
    return (this.#last = lineAt(starts, index));
  }
}
