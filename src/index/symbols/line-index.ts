/**
 * 1-based lines and columns of indices into a source, as tree-sitter counts them: a line ends at
 * `\n`, a column counts UTF-16 code units. Positions come from indices rather than from tree-sitter
 * nodes because a skeleton's nodes (c-skeleton.ts) sit on other rows than the source's, and
 * because each node position read crosses into wasm.
 */
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
    const starts = (this.#starts ??= lineStarts(this.#source));
    let line = this.#last;
    if (starts[line]! <= index && (line + 1 >= starts.length || starts[line + 1]! > index)) return line;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    line = low;
    this.#last = line;
    return line;
  }
}

function lineStarts(source: string): Int32Array {
  let count = 1;
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) count++;
  const starts = new Int32Array(count);
  let line = 1;
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) starts[line++] = at + 1;
  return starts;
}
