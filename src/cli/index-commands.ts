/** `sextant index`, `sync`, `status` and `outline`: thin shells over src/index (search and symbols: lookup-commands.ts). */
import { indexSizes, readSymbolsManifest, SymbolIndex, type SymbolsManifest } from '../index/symbols/index.js';
import { buildIndex, type IndexProgress, mergeDeltas, syncIndex } from '../index/build/index.js';
import {
  findIndexedProject,
  IndexCorruptError,
  IndexIncompatibleError,
  IndexStore,
  type Manifest,
  resolveRoot,
  resumeCommand,
  type JobJournal,
} from '../index/store/index.js';
import { IndexReader } from '../index/search/index.js';
import type { SymbolsSummary } from '../index/symbols/index.js';
import { projectOf } from './lookup-commands.js';
import type { Output } from './output.js';

function formatProgress(event: IndexProgress): string | undefined {
  switch (event.stage) {
    case 'discovery':
      return `discovery: ${event.scanned} files scanned`;
    case 'indexing':
      // Files read, binaries included: the summary then says how many were text.
      return `indexing: ${event.done}/${event.total} files read`;
    case 'finalizing':
      return 'finalizing: writing the index';
    default:
      return undefined;
  }
}

/** How often a non-terminal gets a progress line of a stage that goes on. */
const PLAIN_PROGRESS_MS = 2_000;

/**
 * Progress on stderr: a counter that rewrites itself when stderr is a terminal; otherwise a plain
 * line when a stage begins, every couple of seconds while it goes on, and at its end, never the
 * same line twice (logs and CI see it move, without a flood).
 */
function progressLines(output: Output): { line(text: string, final: boolean): void; done(): void } {
  let lastAt = 0;
  let lastText = '';
  let lastStage = '';
  return {
    line(text, final) {
      if (output.errIsTTY) return output.err(`\r\x1b[K${text}`);
      const stage = text.slice(0, text.indexOf(':'));
      const now = Date.now();
      if (text === lastText || (stage === lastStage && !final && now - lastAt < PLAIN_PROGRESS_MS)) return;
      lastAt = now;
      lastText = text;
      lastStage = stage;
      output.err(`${text}\n`);
    },
    done() {
      if (output.errIsTTY) output.err('\r\x1b[K');
    },
  };
}

/** The text phase's progress events as progress lines. */
function textProgress(lines: ReturnType<typeof progressLines>): (event: IndexProgress) => void {
  return (event) => {
    const text = formatProgress(event);
    if (text) lines.line(text, event.stage !== 'indexing' || event.done === event.total);
  };
}

/** The symbol phase's: files done (parsed, or kept unchanged), as the summary counts them. */
function symbolProgress(lines: ReturnType<typeof progressLines>): (done: number, total: number, symbols: number) => void {
  return (done, total, symbols) => lines.line(`symbols: ${done}/${total} files, ${symbols} symbols`, done === total);
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
  return `${summary.symbols} in ${files(summary.files)} (${summary.parsed} parsed, ${summary.reused} unchanged, ${summary.deleted} removed; ${written})`;
}

/** A size as a person reads it: MB from a tenth of one, KB below, bytes below a KB (a small project is not "0.00 MB"). */
function size(bytes: number): string {
  if (bytes >= 1e5) return `${(bytes / 1e6).toFixed(2)} MB`;
  return bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} KB` : `${bytes} B`;
}

/**
 * Source below this size gets no "% of source": its index is mostly the fixed cost of any index
 * (headers, tables), so the ratio reads as thousands of percent and says nothing.
 */
const RATIO_FROM_SOURCE_BYTES = 1e6;

/** ` (N% of source)`, where the ratio says something. */
function ofSource(bytes: number, sourceBytes: number): string {
  return sourceBytes >= RATIO_FROM_SOURCE_BYTES ? ` (${((100 * bytes) / sourceBytes).toFixed(1)}% of source)` : '';
}

const files = (count: number): string => `${count} file${count === 1 ? '' : 's'}`;

/** The index on disk, part by part, against the size of the source it indexes. */
function diskLine(store: IndexStore, sourceBytes: number): string {
  const sizes = indexSizes(store);
  return (
    `Index on disk: ${size(sizes.total)}${ofSource(sizes.total, sourceBytes)}: ` +
    `text segments ${size(sizes.segments)}, symbols ${size(sizes.symbols)}, name index ${size(sizes.names)}, references ${size(sizes.references)}` +
    `${sizes.other > 0 ? `, other ${size(sizes.other)}` : ''}`
  );
}

export async function indexCommand(path: string, output: Output, force = false): Promise<number> {
  const started = performance.now();
  const lines = progressLines(output);
  const options: Parameters<typeof buildIndex>[1] = { force, onProgress: textProgress(lines) };
  const summary = await buildIndex(path, options);
  lines.done();
  // Symbols come second: the text index is already committed and searchable meanwhile.
  // The parser is loaded only by the commands that parse: a lookup starts without it.
  const { buildSymbols } = await import('../index/symbols/build.js');
  const live = IndexReader.liveFiles(summary.root);
  const symbols = await buildSymbols(summary.root, live.files, { force, textUpdatedAt: live.manifest.updatedAt, onProgress: symbolProgress(lines) });
  lines.done();
  const rate = summary.durationMs > 0 ? (summary.bytes / 1e6 / (summary.durationMs / 1000)).toFixed(1) : '∞';
  const skipped = skippedLine(summary.skipped, summary.skippedExamples);
  output.out(
    `Indexed ${files(summary.files)} (${size(summary.bytes)}) in ${(summary.durationMs / 1000).toFixed(2)} s (${rate} MB/s); ` +
      `text index ${size(summary.indexBytes)}${ofSource(summary.indexBytes, summary.bytes)}` +
      `${skipped ? `; skipped ${skipped}` : ''}\n`,
  );
  output.out(`Symbols: ${symbolsLine(symbols)} in ${(symbols.durationMs / 1000).toFixed(2)} s\n`);
  output.out(`${diskLine(new IndexStore(summary.root), summary.bytes)}\n`);
  // The phases' times leave out loading the parser, reading the tree's files list and writing the summary: this is all of it.
  output.out(`Done in ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
  return 0;
}

export async function syncCommand(path: string, output: Output): Promise<number> {
  const summary = await syncIndex(projectOf(path).root);
  output.out(
    `Synced ${summary.root}: ${summary.added} added, ${summary.changed} changed, ${summary.deleted} deleted in ${(summary.durationMs / 1000).toFixed(2)} s\n`,
  );
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
  const lines = progressLines(output);
  const symbols = await buildSymbols(summary.root, live.files, { textUpdatedAt: live.manifest.updatedAt, onProgress: symbolProgress(lines) });
  lines.done();
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
    diskBytes: indexSizes(store),
  };
  // An unindexed project is an error of the command (exit 2, as for search), said on stderr; the
  // JSON document still describes it, on stdout.
  if (json) {
    output.out(`${JSON.stringify(status)}\n`);
    return manifest || problem ? 0 : 2;
  }
  if (problem) output.out(`${root}: ${problem.code}: ${problem.message}\n`);
  else if (!manifest) {
    // A first index that was interrupted is named: it is what the user will want to know.
    const why = interrupted ? `: ${interruptedLine(interrupted, root)}` : `: run "sextant index ${root}"`;
    output.err(`sextant: ${root} is not indexed yet${why}\n`);
    return 2;
  } else {
    const symbolLine = symbols ? `${symbols.symbols} symbols in ${symbols.files} files, updated ${symbols.updatedAt}` : 'no symbols yet';
    const skipped = skippedLine(manifest.skipped, manifest.skippedExamples);
    output.out(
      `${root}: ${files(manifest.files)}, ${size(manifest.bytes)}, updated ${manifest.updatedAt}; ` +
        `${symbolLine}\n${skipped ? `skipped ${skipped}\n` : ''}${diskLine(store, manifest.bytes)}\n`,
    );
  }
  if (interrupted) output.out(`${interruptedLine(interrupted, root)}\n`);
  return 0;
}

function interruptedLine(interrupted: JobJournal, root: string): string {
  const how = interrupted.stopped ? `stopped: ${interrupted.stopped}` : 'the process died';
  return (
    `interrupted ${interrupted.mode} job from ${interrupted.startedAt} at ${interrupted.stage} ${interrupted.done}/${interrupted.total} ` +
    `(${how}); run "${resumeCommand(interrupted, root)}" to redo it`
  );
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
  const { maxFileBytes } = await import('../index/files/file-limit.js');
  const { detectLanguage } = await import('../index/files/languages.js');
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
    throw new Error(fileProblem(file, error), { cause: error });
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
