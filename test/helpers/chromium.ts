/**
 * Debian's chromium, driven by playwright-core, for the tests of the web page in a real browser.
 * .ci/run installs the package and sets SEXTANT_REQUIRE_CHROMIUM=1, so there a missing browser
 * fails the run; elsewhere those tests are reported skipped, saying how to run them.
 */
import { existsSync } from 'node:fs';
import { test } from 'uvu';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.SEXTANT_CHROMIUM ?? '/usr/bin/chromium';

/** `test` when chromium is here, else `test.skip` (said once per suite, named `suite`). */
export function withChromium(suite: string): typeof test | typeof test.skip {
  if (existsSync(CHROMIUM)) return test;
  if (process.env.SEXTANT_REQUIRE_CHROMIUM === '1') throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  console.log(`${suite}: the browser tests are skipped without ${CHROMIUM} (apt-get install chromium, or SEXTANT_CHROMIUM=PATH, runs them)`);
  return test.skip;
}

/** A headless chromium for `work`, closed after, however `work` ends. */
export async function inChromium<T>(work: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    return await work(browser);
  } finally {
    await browser.close();
  }
}
