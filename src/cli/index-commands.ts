/** `sextant index`, `sync`, `status` and `outline`: thin shells over src/index (search and symbols: lookup-commands.ts). */
import { buildIndex, type IndexProgress } from '../index/indexer.js';
import { findIndexedProject, resolveRoot } from '../index/project-root.js';
import { IndexReader } from '../index/search.js';
import type { SymbolsSummary } from '../index/symbols/build.js';
import { SymbolIndex } from '../index/symbols/symbol-index.js';
import { readSymbolsManifest, type SymbolsManifest } from '../index/symbols/symbol-manifest.js';
import { mergeDeltas } from '../index/merge.js';
import { syncIndex } from '../index/sync.js';
import { IndexCorruptError, IndexIncompatibleError, IndexStore, resumeCommand, type Manifest } from '../index/store.js';
import { projectOf } from './lookup-commands.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  isTTY: boolean;
}

function formatProgress(event: IndexProgress): string | undefined {
  switch (event.stage) {
    case 'discovery':
      return `discovery: ${event.scanned} files scanned`;
    case 'indexing':
      return `indexing: ${event.done}/${event.total} files`;
    case 'finalizing':
      return 'finalizing: writing the index';
    default:
      return undefined;
  }
}

/** How often a non-terminal gets a progress line of the symbol phase. */
const PLAIN_PROGRESS_MS = 2_000;

/**
 * The symbol phase's progress: a counter that rewrites itself on a terminal; otherwise a plain
 * line every couple of seconds, and one at the end (logs and CI see it move, without a flood).
 */
function symbolProgress(output: Output): (done: number, total: number, symbols: number) => void {
  let lastLine = 0;
  return (done, total, symbols) => {
    const line = `symbols: ${done}/${total} files parsed, ${symbols} symbols`;
    if (output.isTTY) return output.err(`\r\x1b[K${line}`);
    const now = Date.now();
    if (done !== total && now - lastLine < PLAIN_PROGRESS_MS) return;
    lastLine = now;
    output.err(`${line}\n`);
  };
}

/** Skipped files by reason, with the first few named: `3 tooLarge (a.bin, b.json, …)`. */
function skippedLine(counts: Record<string, number>, examples: Record<string, string[]> = {}): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([why, n]) => {
      const named = examples[why] ?? [];
      return `${n} ${why}${named.length > 0 ? ` (${named.join(', ')}${n > named.length ? ', …' : ''})` : ''}`;
    })
    .join(', ');
}

function symbolsLine(summary: SymbolsSummary): string {
  const written = summary.written === 'nothing' ? 'nothing to write' : summary.written === 'delta' ? 'written as a delta' : 'written';
  return `${summary.symbols} in ${summary.files} files (${summary.parsed} parsed, ${summary.reused} unchanged, ${summary.deleted} removed; ${written})`;
}

/** The index on disk, part by part, against the size of the source it indexes. */
function diskLine(store: IndexStore, sourceBytes: number): string {
  const sizes = store.sizes();
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;
  return (
    `Index on disk: ${mb(sizes.total)} (${((100 * sizes.total) / Math.max(1, sourceBytes)).toFixed(1)}% of source): ` +
    `text segments ${mb(sizes.segments)}, symbols ${mb(sizes.symbols)}, name index ${mb(sizes.names)}, references ${mb(sizes.references)}` +
    `${sizes.other > 0 ? `, other ${mb(sizes.other)}` : ''}`
  );
}

export async function indexCommand(path: string, output: Output, force = false): Promise<number> {
  const options: Parameters<typeof buildIndex>[1] = {
    force,
    onProgress: (event) => {
      const line = formatProgress(event);
      if (!line) return;
      // A progress line that rewrites itself on a terminal; plain lines otherwise.
      if (output.isTTY) output.err(`\r\x1b[K${line}`);
      else output.err(`${line}\n`);
    },
  };
  const summary = await buildIndex(path, options);
  if (output.isTTY) output.err('\r\x1b[K');
  // Symbols come second: the text index is already committed and searchable meanwhile.
  // The parser is loaded only by the commands that parse: a lookup starts without it.
  const { buildSymbols } = await import('../index/symbols/build.js');
  const live = IndexReader.liveFiles(summary.root);
  const symbols = await buildSymbols(summary.root, live.files, { force, textUpdatedAt: live.manifest.updatedAt, onProgress: symbolProgress(output) });
  if (output.isTTY) output.err('\r\x1b[K');
  const mb = (summary.bytes / 1e6).toFixed(1);
  const rate = summary.durationMs > 0 ? ((summary.bytes / 1e6) / (summary.durationMs / 1000)).toFixed(1) : '∞';
  const skipped = skippedLine(summary.skipped, summary.skippedExamples);
  output.out(
    `Indexed ${summary.files} files (${mb} MB) in ${(summary.durationMs / 1000).toFixed(2)} s (${rate} MB/s); ` +
      `text index ${(summary.indexBytes / 1e6).toFixed(2)} MB (${((100 * summary.indexBytes) / Math.max(1, summary.bytes)).toFixed(1)}% of source)` +
      `${skipped ? `; skipped ${skipped}` : ''}\n`,
  );
  output.out(`Symbols: ${symbolsLine(symbols)} in ${(symbols.durationMs / 1000).toFixed(2)} s\n`);
  output.out(`${diskLine(new IndexStore(summary.root), summary.bytes)}\n`);
  return 0;
}

export async function syncCommand(path: string, output: Output): Promise<number> {
  const summary = await syncIndex(projectOf(path).root);
  output.out(`Synced ${summary.root}: ${summary.added} added, ${summary.changed} changed, ${summary.deleted} deleted in ${(summary.durationMs / 1000).toFixed(2)} s\n`);
  if (summary.mergeDue) {
    const merge = mergeDeltas(summary.root);
    output.out(`Merged ${merge.merged} delta segments (${merge.files} files) in ${(merge.durationMs / 1000).toFixed(2)} s\n`);
  }
  // Current symbols need no file list: the text manifest says which index they must match.
  const store = new IndexStore(summary.root);
  const current = SymbolIndex.current(store, store.readManifest()?.updatedAt ?? '');
  if (current) {
    output.out(`Symbols: ${current.symbols} in ${current.files} files, current\n`);
    return 0;
  }
  const live = IndexReader.liveFiles(summary.root);
  // Only changed files are parsed again: the others keep their symbols by content hash.
  const { buildSymbols } = await import('../index/symbols/build.js');
  const symbols = await buildSymbols(summary.root, live.files, { textUpdatedAt: live.manifest.updatedAt, onProgress: symbolProgress(output) });
  if (output.isTTY) output.err('\r\x1b[K');
  output.out(`Symbols: ${symbolsLine(symbols)}\n`);
  return 0;
}

export function statusCommand(path: string, json: boolean, output: Output): number {
  const root = findIndexedProject(path)?.root ?? resolveRoot(path);
  const store = new IndexStore(root);
  let manifest: Manifest | undefined;
  let problem: { code: string; message: string } | undefined;
  try {
    manifest = store.readManifest();
  } catch (error) {
    if (!(error instanceof IndexIncompatibleError) && !(error instanceof IndexCorruptError)) throw error;
    problem = { code: error.code, message: error.message };
  }
  const interrupted = store.interruptedJob();
  let symbols: SymbolsManifest | undefined;
  try {
    symbols = manifest ? readSymbolsManifest(store) : undefined;
  } catch (error) {
    if (!(error instanceof IndexIncompatibleError) && !(error instanceof IndexCorruptError)) throw error;
    problem ??= { code: error.code, message: error.message };
  }
  const status = {
    root,
    indexed: manifest !== undefined,
    files: manifest?.files ?? 0,
    bytes: manifest?.bytes ?? 0,
    updatedAt: manifest?.updatedAt ?? null,
    skipped: manifest?.skipped ?? {},
    skippedExamples: manifest?.skippedExamples ?? {},
    indexDir: store.dir,
    interruptedJob: interrupted ? { ...interrupted, resumeCommand: resumeCommand(interrupted, root) } : null,
    error: problem ?? null,
    symbols: symbols ? { files: symbols.files, symbols: symbols.symbols, segments: symbols.segments.length, updatedAt: symbols.updatedAt } : null,
    diskBytes: store.sizes(),
  };
  if (json) {
    output.out(`${JSON.stringify(status)}\n`);
    return 0;
  }
  if (problem) output.out(`${root}: ${problem.code}: ${problem.message}\n`);
  else if (!manifest) output.out(`${root}: not indexed (run "sextant index ${root}")\n`);
  else {
    const symbolLine = symbols ? `${symbols.symbols} symbols in ${symbols.files} files, updated ${symbols.updatedAt}` : 'no symbols yet';
    const skipped = skippedLine(manifest.skipped, manifest.skippedExamples);
    output.out(`${root}: ${manifest.files} files, ${(manifest.bytes / 1e6).toFixed(1)} MB, updated ${manifest.updatedAt}; ${symbolLine}\n${skipped ? `skipped ${skipped}\n` : ''}${diskLine(store, manifest.bytes)}\n`);
  }
  if (interrupted) {
    const how = interrupted.stopped ? `stopped: ${interrupted.stopped}` : 'the process died';
    output.out(`interrupted ${interrupted.mode} job from ${interrupted.startedAt} at ${interrupted.stage} ${interrupted.done}/${interrupted.total} (${how}); run "${resumeCommand(interrupted, root)}" to redo it\n`);
  }
  return 0;
}

/** What went wrong reading `file`, said for a person (no errno names). */
function fileProblem(file: string, error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return `No such file: ${file}`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied reading ${file}`;
    case 'EISDIR':
      return `${file} is a directory: outline takes one source file`;
    default:
      return `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export async function outlineCommand(file: string, json: boolean, output: Output): Promise<number> {
  const { readFile, stat } = await import('node:fs/promises');
  const { maxFileBytes } = await import('../index/file-limit.js');
  const { detectLanguage } = await import('../index/languages.js');
  const { SymbolExtractor } = await import('../index/symbols/extract.js');
  let source: string;
  try {
    // Looked at before it is opened: a FIFO or a device named here would block or never end.
    const stats = await stat(file);
    if (!stats.isFile() && !stats.isDirectory()) throw new Error(`${file} is not a regular file: outline takes one source file`);
    if (stats.size > maxFileBytes()) throw new Error(`${file} is larger than the ${maxFileBytes()}-byte limit (SEXTANT_MAX_FILE_BYTES)`);
    source = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && !('code' in error)) throw error;
    throw new Error(fileProblem(file, error));
  }
  const language = detectLanguage(file, source.slice(0, 200));
  if (!SymbolExtractor.supports(language)) throw new Error(`No symbol support for ${language ?? 'this file type'} (${file})`);
  const { symbols } = await (await SymbolExtractor.create()).extract(language!, source);
  if (json) {
    output.out(`${JSON.stringify({ file, language, symbols })}\n`);
    return 0;
  }
  for (const symbol of symbols) {
    const depth = symbol.qualifiedName.split(/::|\./).length - 1;
    output.out(`${'  '.repeat(depth)}${symbol.kind} ${symbol.name}  ${symbol.line}-${symbol.endLine}  ${symbol.signature}\n`);
  }
  return 0;
}
