/** Mistakes in how a command was called: each is exit code 2 with its reason, like yargs' own. */

/** A mistake in how the command was called: exit code 2, like yargs' own usage errors. */
export class UsageError extends Error {}

/** A count flag: an integer of at least `min`, or a usage error naming the flag and the value. */
export function count(flag: string, min: number): (value: unknown) => number {
  return (value) => {
    // Given twice, the last one counts (as with every other flag).
    const given = Array.isArray(value) ? value.at(-1) : value;
    const number = typeof given === 'string' && given.trim() !== '' ? Number(given) : typeof given === 'number' ? given : NaN;
    if (!Number.isInteger(number) || number < min)
      throw new UsageError(`--${flag} must be a whole number of at least ${min} (got ${JSON.stringify(String(given))})`);
    return number;
  };
}
