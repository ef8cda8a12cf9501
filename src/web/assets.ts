/**
 * The web page's files, built by esbuild from page/ (scripts/bundle.mjs): in the single
 * executable they are its assets; beside the bundle in dist/web/; from source in build/web/.
 * Read once, then served from memory.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { embeddedAsset } from '../platform/runtime.js';

/** A file of the page, ready to send. */
interface WebAsset {
  body: Buffer;
  type: string;
}

/** The page's files by the name they are served under (/assets/NAME). */
const FILES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** Where a built file may be, in order: beside the bundle's chunks, then build/web from source. */
const PLACES = ['./web/', '../../web/'];

const loaded = new Map<string, WebAsset | null>();

function read(name: string): Buffer | undefined {
  const embedded = embeddedAsset(`web/${name}`);
  if (embedded) return Buffer.from(embedded);
  for (const place of PLACES) {
    try {
      return readFileSync(fileURLToPath(new URL(`${place}${name}`, import.meta.url)));
    } catch {
      // Not here: the next place.
    }
  }
  return undefined;
}

/** The built file served as /assets/`name`; undefined for a name the page has not, or a build without the page. */
export function webAsset(name: string): WebAsset | undefined {
  const type = FILES[name];
  if (!type) return undefined;
  if (!loaded.has(name)) {
    const body = read(name);
    loaded.set(name, body ? { body, type } : null);
  }
  return loaded.get(name) ?? undefined;
}
