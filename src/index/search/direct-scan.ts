/**
 * Searching a project that has no index yet (auto-index is building one): walk it as discovery
 * does and match every text file directly. Exact for what it covers, but bounded in time, so a
 * large tree answers with what it found so far, marked partial, instead of not at all.
 */
import { detectLanguage } from '../files/languages.js';
import { discover } from '../files/walk.js';
import { globToRegExp } from '../files/glob.js';
import { ProjectFiles } from '../files/project-file.js';
import { compileMatcher, matchText } from './matcher.js';
import { DEFAULT_SEARCH_LIMIT, type Match, type SearchQuery, type SearchResult } from './reader.js';

/** How long a direct scan may walk before it answers with what it has. */
const DEFAULT_DIRECT_SCAN_MS = 2_000;

export interface DirectScanResult extends SearchResult {
  /** The scan stopped at its time limit: files past that point were not searched. */
  partial: boolean;
}

export function directScan(root: string, query: SearchQuery, timeLimitMs = DEFAULT_DIRECT_SCAN_MS): DirectScanResult {
  const started = Date.now();
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const compiled = compileMatcher(query);
  const pathFilter = query.path ? globToRegExp(query.path) : undefined;
  const { files } = discover(root);
  const projectFiles = new ProjectFiles(root);
  const matches: Match[] = [];
  let truncated = false;
  let partial = false;
  let scanned = 0;
  for (const file of files) {
    if (Date.now() - started > timeLimitMs) {
      partial = true;
      break;
    }
    if (pathFilter && !pathFilter.test(file.path)) continue;
    const read = projectFiles.read(file.path);
    if ('refused' in read) continue;
    const bytes = read.bytes;
    if (bytes.subarray(0, 8192).includes(0)) continue; // binary, as the index would skip it
    const text = bytes.toString('utf8');
    if (query.language && detectLanguage(file.path, text.slice(0, 256)) !== query.language) continue;
    scanned++;
    if (!matchText(file.path, text, compiled, Math.max(0, query.context ?? 0), matches, limit)) {
      truncated = true;
      break;
    }
  }
  return { matches, truncated, partial, stats: { files: files.length, candidates: scanned, durationMs: Date.now() - started } };
}
