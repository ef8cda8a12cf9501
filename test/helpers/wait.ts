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
