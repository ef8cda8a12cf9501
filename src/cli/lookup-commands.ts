/**
 * `sextant search` and `symbols`: thin shells over src/index that only read an index. Apart from
 * index-commands.ts so that a lookup loads none of the indexing code (the walk, extraction, the
 * walk cache), which would be a visible part of a search's start.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { findIndexedProject, type IndexStore, resolveRoot, unsearchedFiles } from '../index/store/index.js';
import { type Match, NotIndexedError, openForOneSearch, publicMatch, searchOnce, type SearchQuery } from '../index/search/index.js';
import { SymbolIndex } from '../index/symbols/index.js';
import type { Output } from './output.js';

/** `path` resolved, when it names a regular file (a search of one file, as rg takes one). */
function regularFile(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** A path as a glob that matches only itself: the glob's special characters in classes of one. */
function globLiteral(path: string): string {
  return path.replace(/[*?[{},]/g, (c) => `[${c}]`);
}

/** The indexed project holding `path` (it, or its nearest indexed ancestor), or NotIndexedError. */
export function projectOf(path: string): { root: string; sub: string; store: IndexStore } {
  const found = findIndexedProject(path);
  if (!found) throw new NotIndexedError(resolveRoot(path));
  return found;
}

export async function searchCommand(path: string, query: SearchQuery & { json?: boolean; jsonl?: boolean; rank?: boolean }, output: Output): Promise<number> {
  const { json, jsonl, rank, ...search } = query;
  /** Said on stderr after the matches: more were found than shown. */
  let more: string | undefined;
  // From inside a project, as rg does: the search covers that directory (paths stay project-relative),
  // or that one file.
  const file = regularFile(path);
  const { root, sub, store } = projectOf(file ? dirname(file) : path);
  if (file) {
    if (search.path) throw new Error(`--glob cannot narrow a search of one file (${path})`);
    search.path = `/${globLiteral(relative(root, file).split(sep).join('/'))}`;
  } else if (sub !== '') search.path = search.path ? `${sub}/${search.path}` : `${sub}/**`;
  const color = output.isTTY;
  const paint = (code: string, text: string): string => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  // Matches are printed as each file's are found. To a pipe in pieces of about 64 KiB (a write
  // per line costs more than the search), to a terminal file by file.
  let pending = '';
  const write = (line: string): void => {
    pending += line;
    if (pending.length >= 65_536) {
      output.out(pending);
      pending = '';
    }
  };
  const print = (matches: Match[]): void => {
    // JSON Lines: a match a line, as it is found (the search's own summary is the last line).
    if (jsonl) for (const match of matches) write(`${JSON.stringify({ type: 'match', ...publicMatch(match) })}\n`);
    else
      for (const match of matches) {
        for (const [offset, line] of (match.before ?? []).entries()) {
          write(`${paint('35', match.path)}-${match.line - (match.before!.length - offset)}-${line}\n`);
        }
        write(`${paint('35', match.path)}:${paint('32', String(match.line))}:${match.column}: ${match.text}\n`);
        for (const [offset, line] of (match.after ?? []).entries()) write(`${paint('35', match.path)}-${match.line + offset + 1}-${line}\n`);
      }
    if (output.isTTY && pending) {
      output.out(pending);
      pending = '';
    }
  };
  // One search and exit: this thread, a lazily opened index, no workers (index/search/one-shot.ts).
  const reader = openForOneSearch(store);
  let result;
  try {
    const unsearched = unsearchedFiles(reader.manifest);
    if (unsearched) {
      output.err(
        `note: ${unsearched.count} file${unsearched.count === 1 ? ' was' : 's were'} not indexed (too large or unreadable), so not searched: ` +
          `${unsearched.examples.join(', ')}${unsearched.count > unsearched.examples.length ? ', …' : ''} (see "sextant status")\n`,
      );
    }
    if (rank) {
      // search_code's order (index/search/ranking.ts): the pool it ranks, the definitions of the name, then the first --limit shown.
      const { rankedSearch, RANKING_POOL } = await import('../tools/search/index.js');
      const ranked = rankedSearch(root, reader, search, search.limit ?? 100);
      result = ranked;
      // Known before a line is printed, so said first: whoever reads the output is still there.
      const notes: string[] = [];
      if (ranked.ranked > ranked.matches.length) notes.push(`(the first ${ranked.matches.length} of ${ranked.ranked} ranked matches; raise --limit for more)`);
      if (ranked.truncated) notes.push(`(ranked ${RANKING_POOL} matches, source first, and the definitions of the name; narrow the query or the path)`);
      if (notes.length > 0 && !json && !jsonl) output.err(`${notes.join('\n')}\n`);
      if (!json) print(ranked.matches);
    } else {
      result = searchOnce(reader, search, json ? undefined : print);
      if (result.truncated) more = `(stopped at ${query.limit ?? 100} matches; raise --limit for more)`;
    }
  } finally {
    reader.close();
    // What was found before a failure (a budget spent, say) is still shown, then the error.
    if (pending) output.out(pending);
    pending = '';
  }
  if (jsonl) {
    const { matches: _matches, ...summary } = result;
    output.out(`${JSON.stringify({ type: 'summary', ...summary, matches: result.matches.length })}\n`);
    return result.matches.length > 0 ? 0 : 1;
  }
  if (json) {
    output.out(`${JSON.stringify({ ...result, matches: result.matches.map(publicMatch) })}\n`);
    return result.matches.length > 0 ? 0 : 1;
  }
  // Known only once the matches are out: into a pipe the reader may be gone by then (`| head -1`),
  // and a note about what it did not read would only confuse; --json carries `truncated`.
  if (more && !output.toPipe) output.err(`${more}\n`);
  // Like grep and rg: exit 1 when nothing matched.
  return result.matches.length > 0 ? 0 : 1;
}

export function symbolsCommand(name: string, path: string, options: { kind?: string; limit: number; json: boolean }, output: Output): number {
  const { root, store } = projectOf(path);
  if (!store.readManifest()) throw new NotIndexedError(root);
  // A file removed since the index was written is not named (as in the server).
  const symbols = SymbolIndex.open(store, { present: (file) => existsSync(join(root, file)) });
  if (!symbols) {
    // Say why there is nothing, instead of a silent "not found".
    const interrupted = store.interruptedJob();
    const why =
      interrupted?.mode === 'symbols' ? `the symbol phase was interrupted at ${interrupted.done}/${interrupted.total} files` : 'the symbol phase has not run';
    throw new Error(`No symbols for ${root} yet: ${why}; run "sextant sync ${root}" to build them`);
  }
  const lookup: { kind?: string; limit: number } = { limit: options.limit, kind: options.kind || undefined };
  // Read in place: only the name-table entries searched and the records printed.
  const found = symbols.find(name, lookup);
  symbols.close();
  if (options.json) output.out(`${JSON.stringify({ symbols: found })}\n`);
  else for (const symbol of found) output.out(`${symbol.path}:${symbol.line}: ${symbol.kind} ${symbol.qualifiedName}  ${symbol.signature}\n`);
  return found.length > 0 ? 0 : 1;
}
