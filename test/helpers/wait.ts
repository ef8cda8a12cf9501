/**
 * Waiting for what a test means: a state, looked at again until it holds, with a deadline that
 * fails the test instead of hanging the run. Never a sleep that races a timer of the code.
 */
import * as assert from 'uvu/assert';

export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 20): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check());) {
    if (Date.now() > deadline) assert.unreachable(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Lets timers and I/O callbacks run once (or for `ms`): for a test that must let the code go on, not wait for a state. */
export const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
