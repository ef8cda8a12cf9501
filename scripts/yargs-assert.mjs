// Stands in for `assert` in yargs' platform shim (scripts/bundle-options.mjs): yargs uses only
// these two, for checks of its own invariants, and node:assert costs 2-3 ms of every start-up.
// A failure throws, as node:assert does.
export function strictEqual(actual, expected, message) {
  if (actual !== expected) throw new Error(message ?? `Expected ${String(actual)} to be strictly equal to ${String(expected)}`);
}

export function notStrictEqual(actual, expected, message) {
  if (actual === expected) throw new Error(message ?? `Expected a value other than ${String(expected)}`);
}
