/**
 * The manifest: the one file that says what an index is (its format, its segments, its
 * counts). It is swapped last by every commit, and checked field by field whenever it is read.
 */
import { CodedError, ERROR_CODES } from '../../errors.js';
import { crypto } from '../../util/lazy-crypto.js';

/** Bump when the on-disk layout changes; an index of another format is never read. */
export const INDEX_FORMAT_VERSION = 6;

export interface Manifest {
  format: number;
  root: string;
  createdAt: string;
  updatedAt: string;
  segments: string[];
  /** How many of `segments` (the first ones) a full build wrote; the rest are sync deltas. */
  baseSegments?: number;
  files: number;
  bytes: number;
  skipped: Record<string, number>;
  /** The first few files skipped for each reason (the counts in `skipped` cover them all). */
  skippedExamples?: Record<string, string[]>;
}

/** A new segment's name: unique even for two commits in one millisecond (a name is never reused). */
export function newSegmentName(tag = ''): string {
  return `segment-${Date.now().toString(36)}-${crypto().randomBytes(4).toString('hex')}${tag ? `-${tag}` : ''}.sxt`;
}

/** The only names a segment may have: a manifest that names anything else (`../x`) is corrupt. */
export const SEGMENT_NAME = /^segment-[a-z0-9]+(-[a-z0-9]+)*\.sxt$/;

export class IndexIncompatibleError extends CodedError {
  declare readonly code: 'index_incompatible';
  constructor(found: unknown, reads = `format ${INDEX_FORMAT_VERSION}`) {
    super(`The index was written by format ${JSON.stringify(found)}, this Sextant reads ${reads}: rebuild it with "sextant index --force"`, {
      code: 'index_incompatible',
      remedy: ERROR_CODES.index_incompatible.remedy,
    });
    this.name = 'IndexIncompatibleError';
  }
}

/** The index on disk cannot be read: a torn or overwritten manifest or segment. Only a rebuild helps. */
export class IndexCorruptError extends CodedError {
  declare readonly code: 'index_corrupt';
  constructor(what: string, root?: string) {
    super(`The index is corrupt (${what}): rebuild it with "sextant index --force${root ? ` ${root}` : ''}"`, {
      code: 'index_corrupt',
      remedy: ERROR_CODES.index_corrupt.remedy,
    });
    this.name = 'IndexCorruptError';
  }
}

/** Checks every field a reader relies on; what is wrong is named, never read as NaN or undefined. */
export function parseManifest(text: string, root?: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new IndexCorruptError('manifest.json is not valid JSON', root);
  }
  const bad = (field: string): IndexCorruptError => new IndexCorruptError(`manifest.json: ${field}`, root);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not an object');
  const manifest = value as Record<string, unknown>;
  if (!Number.isInteger(manifest.format)) throw bad('"format" is not an integer');
  if (manifest.format !== INDEX_FORMAT_VERSION) throw new IndexIncompatibleError(manifest.format);
  const count = (field: string): void => {
    if (!Number.isSafeInteger(manifest[field]) || (manifest[field] as number) < 0) throw bad(`"${field}" is not a count`);
  };
  for (const field of ['root', 'createdAt', 'updatedAt']) if (typeof manifest[field] !== 'string') throw bad(`"${field}" is not a string`);
  count('files');
  count('bytes');
  const segments = manifest.segments;
  if (!Array.isArray(segments) || !segments.every((name) => typeof name === 'string' && SEGMENT_NAME.test(name)))
    throw bad('"segments" is not a list of segment names');
  if (new Set(segments).size !== segments.length) throw bad('"segments" names a segment twice');
  if (
    manifest.baseSegments !== undefined &&
    (!Number.isInteger(manifest.baseSegments) || (manifest.baseSegments as number) < 0 || (manifest.baseSegments as number) > segments.length)
  ) {
    throw bad('"baseSegments" is not a count of its segments');
  }
  const skipped = manifest.skipped;
  if (
    typeof skipped !== 'object' ||
    skipped === null ||
    Array.isArray(skipped) ||
    !Object.values(skipped).every((n) => Number.isSafeInteger(n) && (n as number) >= 0)
  ) {
    throw bad('"skipped" is not a table of counts');
  }
  const examples = manifest.skippedExamples;
  if (
    examples !== undefined &&
    (typeof examples !== 'object' ||
      examples === null ||
      Array.isArray(examples) ||
      !Object.values(examples).every((list) => Array.isArray(list) && list.every((path) => typeof path === 'string')))
  ) {
    throw bad('"skippedExamples" is not a table of path lists');
  }
  return manifest as unknown as Manifest;
}

/** Text the index left out (too large, unreadable when read): a search cannot vouch for it. */
export function unsearchedFiles(manifest: Manifest): { count: number; examples: string[] } | undefined {
  const reasons = ['tooLarge', 'unreadable'];
  const count = reasons.reduce((sum, reason) => sum + (manifest.skipped[reason] ?? 0), 0);
  if (count === 0) return undefined;
  return { count, examples: reasons.flatMap((reason) => manifest.skippedExamples?.[reason] ?? []) };
}
