/**
 * The Rust standard library's `std/src/fs.rs` from Debian's rust-src: real code nobody here wrote,
 * for the tests of Rust symbols and docs. .ci/run installs the package and sets
 * SEXTANT_REQUIRE_RUST_SRC=1, so there a missing file fails the run; elsewhere the tests that read
 * it are reported skipped, saying how to run them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'uvu';

const RUST_FS = '/usr/lib/rustlib/src/rust/library/std/src/fs.rs';

/** `test` when fs.rs is here, else `test.skip` (said once per suite, named `suite`). */
export function withRustSource(suite: string): typeof test | typeof test.skip {
  if (existsSync(RUST_FS)) return test;
  if (process.env.SEXTANT_REQUIRE_RUST_SRC === '1') throw new Error(`${RUST_FS} is missing: apt-get install rust-src`);
  console.log(`${suite}: the fs.rs tests are skipped without ${RUST_FS} (apt-get install rust-src runs them)`);
  return test.skip;
}

/** The text of fs.rs. */
export function rustFs(): string {
  return readFileSync(RUST_FS, 'utf8');
}
