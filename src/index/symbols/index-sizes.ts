/**
 * How much disk each part of an index takes. It reads the symbol segments' headers (where their
 * name tables and references start), so it lives beside both formats, not in the text store.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexStore } from '../store/store.js';
import { SEGMENT_NAME } from '../store/manifest.js';
import { HEADER_BYTES, sectionAt } from './segment/index.js';

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Bytes on disk of each part of an index (the files the index folder holds). */
export interface IndexSizes {
  segments: number;
  symbols: number;
  names: number;
  references: number;
  other: number;
  total: number;
}

function symbolSegmentParts(path: string, bytes: number): { symbols: number; names: number; references: number } {
  const header = Buffer.alloc(HEADER_BYTES);
  try {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, header, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return { symbols: bytes, names: 0, references: 0 };
  }
  const names = header.readUInt32LE(sectionAt('names'));
  const references = header.readUInt32LE(sectionAt('references'));
  if (!(names <= references && references <= bytes)) return { symbols: bytes, names: 0, references: 0 };
  return { symbols: names, names: references - names, references: bytes - references };
}

/** The size of every part of an index on disk (what the summary, status and index_status report). */
export function indexSizes(store: IndexStore): IndexSizes {
  const sizes: IndexSizes = { segments: 0, symbols: 0, names: 0, references: 0, other: 0, total: 0 };
  for (const name of entries(store.dir)) {
    let bytes: number;
    try {
      bytes = statSync(join(store.dir, name)).size;
    } catch {
      continue; // removed meanwhile
    }
    sizes.total += bytes;
    if (SEGMENT_NAME.test(name)) sizes.segments += bytes;
    else if (/^symbols-.*\.sxs$/.test(name)) {
      // A symbol segment holds all three: its header says where the name tables and references start.
      const parts = symbolSegmentParts(join(store.dir, name), bytes);
      sizes.symbols += parts.symbols;
      sizes.names += parts.names;
      sizes.references += parts.references;
    } else if (name.startsWith('symbols')) sizes.symbols += bytes;
    else sizes.other += bytes;
  }
  return sizes;
}
