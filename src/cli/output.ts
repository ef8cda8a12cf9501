/** Where a command writes: stdout for its answer, stderr for progress and errors, and what each is. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  isTTY: boolean;
  /** stderr, where progress goes, is a terminal (a counter rewrites itself there). */
  errIsTTY?: boolean;
  /** stdout is a pipe: its reader may have stopped early (`| head`), so notes about the output are left out. */
  toPipe?: boolean;
}
