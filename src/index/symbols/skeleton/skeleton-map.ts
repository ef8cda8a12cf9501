/**
 * A skeleton: a source with parts cut out before tree-sitter parses it (the bodies tree-sitter
 * need not see), and the map from the skeleton's indices back to the source's. The cuts are
 * made by a language's skeleton (c-skeleton.ts, brace-skeleton.ts, indent-skeleton.ts); the
 * calls in the cut parts are found lexically (c-calls.ts, lexical-calls.ts).
 */

export interface Skeleton {
  /** What tree-sitter parses. */
  text: string;
  /** Ranges [start, end) of the source, in order, whose calls `scanCalls` finds: the cut bodies without their directives. */
  bodies: Int32Array;
  /** An index into `text` as an index into the source: where something starts. */
  toSource(index: number): number;
  /** The same for where something ends: an end at a cut is the cut's start, not its end. */
  toSourceEnd(index: number): number;
  /** The same for where a definition starts: a start at a cut made in a head (`Cuts.head`) is the cut's start. */
  toDefinitionStart(index: number): number;
}

/** Cut ranges, adjacent ones merged, and the ranges whose calls are scanned. */
export class Cuts {
  readonly ranges: number[] = [];
  readonly bodies: number[] = [];
  /** Starts of the cuts made in declarations' heads: a definition starting after one starts at it. */
  readonly heads = new Set<number>();

  /** Where the cuts stand now, for undo(). */
  mark(): { ranges: number; lastEnd: number; bodies: number } {
    return { ranges: this.ranges.length, lastEnd: this.ranges.at(-1) ?? -1, bodies: this.bodies.length };
  }

  /** Takes back every cut made since `mark` (a merge into the range before it included). */
  undo(mark: { ranges: number; lastEnd: number; bodies: number }): void {
    this.ranges.length = mark.ranges;
    if (mark.ranges > 0) this.ranges[mark.ranges - 1] = mark.lastEnd;
    this.bodies.length = mark.bodies;
  }

  /** Where the last cut ends (0 before any). */
  lastEnd(): number {
    return this.ranges.at(-1) ?? 0;
  }

  cut(start: number, end: number): void {
    if (end <= start) return;
    const ranges = this.ranges;
    if (ranges.length > 0 && ranges[ranges.length - 1] === start) ranges[ranges.length - 1] = end;
    else ranges.push(start, end);
  }

  /** A cut of words in a declaration's head (C's attribute macros): what it removed still belongs to the definition. */
  head(start: number, end: number): void {
    if (end <= start) return;
    this.heads.add(start);
    this.cut(start, end);
  }

  body(start: number, end: number): void {
    if (end <= start) return;
    this.cut(start, end);
    this.bodies.push(start, end);
  }
}

/**
 * The skeleton of `source` with `found`'s cuts. `endsAfterCut`: an end that falls at a cut is
 * the cut's end (an indented body cut after its first statement belongs to what it ends).
 */
export function build(source: string, found: Cuts, endsAfterCut = false): Skeleton {
  const kept = found.ranges;
  const pieces: string[] = [];
  /** Per cut: where it sits in the text, and how much was removed up to and including it. */
  const textAt = new Int32Array(kept.length / 2);
  const removedUpTo = new Int32Array(kept.length / 2);
  const isHead = found.heads.size > 0 ? new Uint8Array(kept.length / 2) : undefined;
  let from = 0;
  let removed = 0;
  for (let i = 0; i < kept.length; i += 2) {
    pieces.push(source.slice(from, kept[i]));
    textAt[i / 2] = kept[i]! - removed;
    if (isHead && found.heads.has(kept[i]!)) isHead[i / 2] = 1;
    removed += kept[i + 1]! - kept[i]!;
    removedUpTo[i / 2] = removed;
    from = kept[i + 1]!;
  }
  pieces.push(source.slice(from));
  /** The index shifted by what the cuts before it removed (`atCut`: whether a cut at the index itself counts). */
  const shifted = (index: number, atCut: boolean, headsBefore = false): number => {
    let low = 0;
    let high = textAt.length - 1;
    let shift = 0;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (textAt[middle]! < index || (atCut && textAt[middle] === index && !(headsBefore && isHead?.[middle]))) {
        shift = removedUpTo[middle]!;
        low = middle + 1;
      } else high = middle - 1;
    }
    return index + shift;
  };
  return {
    text: pieces.join(''),
    bodies: Int32Array.from(found.bodies),
    toSource: (index) => shifted(index, true),
    toSourceEnd: (index) => shifted(index, endsAfterCut),
    toDefinitionStart: (index) => shifted(index, true, true),
  };
}
