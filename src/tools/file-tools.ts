/**
 * `read_file` and `list_files`: the files behind the answers, as the index serves them. A file is
 * served only if the index holds it: one the index skips (ignored, binary, too large, a link out
 * of the project) is answered as one that does not exist, so that a caller learns nothing of what
 * is kept out. Reads go through ProjectFiles (links out of the project are never followed).
 */
import { globToRegExp, ProjectFiles, workspaceGlob, BadGlobError } from '../index/files/index.js';
import { openForOneSearch } from '../index/search/index.js';
import type { ToolDefinition } from '../mcp/index.js';
import type { IndexStamps, Project } from '../workspace/project.js';
import type { ProjectService } from '../workspace/projects.js';
import { codedError } from '../errors.js';
import { MAX_PATH_CHARS, pageCursor, pageOffset } from './limits.js';
import { projectTool } from './project-tool.js';
import { statusFields, STATUS_PROPERTIES, STATUS_REQUIRED } from './status.js';
import { workspacePath } from './workspace-files.js';
import { FileLines, splitLines, windowOf } from './file-lines.js';
import { join } from 'node:path';

/** Lines one read_file gives unless end_line says fewer. */
const DEFAULT_READ_LINES = 400;
/** The most lines one read_file gives, whatever end_line says. */
const MAX_READ_LINES = 2_000;
/** Entries one list_files page holds, unless limit says fewer. */
const DEFAULT_LIST_ENTRIES = 200;
const MAX_LIST_ENTRIES = 1_000;
/** Index file lists kept between calls (one per project and index generation). */
const KEPT_FILE_LISTS = 32;

interface IndexedFile {
  path: string;
  size: number;
  language?: string;
}

/** The index's files of a project, read once per index generation. */
function indexedFiles(
  project: Project,
  kept: Map<string, { generation: string; files: Map<string, IndexedFile> }>,
  at?: IndexStamps,
): Map<string, IndexedFile> {
  const generation = project.generation(at);
  const cached = kept.get(project.root);
  if (cached && cached.generation === generation) return cached.files;
  const reader = openForOneSearch(project.store);
  let files: Map<string, IndexedFile>;
  try {
    files = new Map(reader.files.map((file) => [file.path, { path: file.path, size: file.size, ...(file.language && { language: file.language }) }]));
  } finally {
    reader.close();
  }
  kept.delete(project.root);
  kept.set(project.root, { generation, files });
  if (kept.size > KEPT_FILE_LISTS) kept.delete(kept.keys().next().value!);
  return files;
}

function notServed(path: string): Error {
  return codedError(
    'file_not_found',
    `${JSON.stringify(path)} is not among the files the index serves: it does not exist, or the index skips it ` + '(binary, ignored, or too large)',
    { path },
    'list_files lists the files there are; search_code finds where a name is.',
  );
}

export function createFileTools(projects: ProjectService): ToolDefinition[] {
  const kept = new Map<string, { generation: string; files: Map<string, IndexedFile> }>();
  const fileLines = new FileLines();
  const readFile = projectTool(projects, {
    name: 'read_file',
    title: 'Read a file',
    description:
      "Reads lines of one of the project's files, with line numbers, as the index serves it (path relative to the project root, as search results give it). " +
      `At most ${DEFAULT_READ_LINES} lines unless end_line asks for more (${MAX_READ_LINES} at most), and within the output budget; ` +
      'when cut, next_start_line (also in the text) is where to continue. Files the index skips (binary, ignored, too large) are not served.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, maxLength: MAX_PATH_CHARS, description: 'The file, relative to the project root' },
        start_line: { type: 'integer', minimum: 1, default: 1 },
        end_line: { type: 'integer', minimum: 1, description: 'The last line wanted (inclusive)' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        path: { type: 'string' },
        language: { type: 'string' },
        start_line: { type: 'integer', minimum: 1 },
        end_line: { type: 'integer', minimum: 0, description: 'The last line given (start_line - 1 when none is)' },
        total_lines: { type: 'integer', minimum: 0 },
        next_start_line: { type: 'integer', minimum: 1, description: 'Where to continue: the answer was cut before end_line (or the end of the file)' },
        text: { type: 'string', description: 'The lines given, as they are in the file (without line numbers)' },
      },
      required: [...STATUS_REQUIRED, 'path', 'start_line', 'end_line', 'total_lines', 'text'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(project, _resolved, args) {
      // The index's files read once for the whole call: its state, its generation, the status it reports.
      const at = project.stamps();
      const state = project.indexState(at);
      const manifest = project.requireIndex(state);
      const path = workspacePath(project, args.path as string);
      const file = indexedFiles(project, kept, at).get(path);
      if (!file) throw notServed(path);
      // A replica catching up has the next commit on disk: the file is read as the served commit has it.
      const atServed = projects.named.atRoot(project.root)?.readServed;
      const lines = atServed
        ? splitLines(await atServed(path))
        : fileLines.lines(join(project.root, path), () => {
            const read = new ProjectFiles(project.root).read(path);
            return 'bytes' in read ? read.bytes : undefined;
          });
      if (!lines) throw notServed(path);
      const start = (args.start_line as number | undefined) ?? 1;
      if (start > Math.max(lines.length, 1)) {
        throw codedError('invalid_input', `start_line ${start} is past the end of ${path} (${lines.length} lines)`, { argument: 'start_line' });
      }
      const wantedEnd = Math.min((args.end_line as number | undefined) ?? start + DEFAULT_READ_LINES - 1, start + MAX_READ_LINES - 1, lines.length);
      if (wantedEnd < start && args.end_line !== undefined) {
        throw codedError('invalid_input', `end_line ${args.end_line as number} is before start_line ${start}`, { argument: 'end_line' });
      }
      const { end, text, numbered } = windowOf(lines, start, wantedEnd);
      const cut = end < Math.min((args.end_line as number | undefined) ?? lines.length, lines.length);
      const structured: Record<string, unknown> = {
        ...statusFields(project, manifest, cut ? 'truncated' : 'complete', state.status),
        path,
        ...(file.language && { language: file.language }),
        start_line: start,
        end_line: end,
        total_lines: lines.length,
        ...(cut && { next_start_line: end + 1 }),
        text,
      };
      const header = `${path}: lines ${start}-${end} of ${lines.length}${file.language ? ` (${file.language})` : ''}`;
      const footer = cut ? [`More: call again with start_line ${end + 1}.`] : [];
      return { content: [{ type: 'text', text: [header, ...(numbered === '' ? [] : [numbered]), ...footer].join('\n') }], structuredContent: structured };
    },
  });

  const listFiles = projectTool(projects, {
    name: 'list_files',
    title: 'List files',
    description:
      "Lists the project's files under a folder, as the index serves them: each file with its size and language, and below `depth` levels " +
      'each folder with how many files and bytes it holds. Filter with a glob over project-relative paths. Paged: pass nextCursor back as cursor.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', maxLength: MAX_PATH_CHARS, description: 'A folder, relative to the project root (default: the root)' },
        glob: { type: 'string', maxLength: MAX_PATH_CHARS, description: 'Only files whose path matches (e.g. "src/**/*.ts")' },
        depth: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          default: 2,
          description: 'Levels below path listed file by file; deeper ones are summed per folder',
        },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LIST_ENTRIES, default: DEFAULT_LIST_ENTRIES },
        cursor: { type: 'string', description: 'nextCursor of a previous call with the same arguments' },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        ...STATUS_PROPERTIES,
        path: { type: 'string' },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              type: { type: 'string', enum: ['file', 'folder'] },
              size: { type: 'integer', minimum: 0, description: 'Bytes: of the file, or of every file in the folder' },
              language: { type: 'string' },
              files: { type: 'integer', minimum: 1, description: 'A folder: how many files it holds, at any depth' },
            },
            required: ['path', 'type', 'size'],
            additionalProperties: false,
          },
        },
        total_entries: { type: 'integer', minimum: 0 },
        total_files: { type: 'integer', minimum: 0, description: 'Files under path (that the glob matches)' },
        nextCursor: { type: 'string' },
      },
      required: [...STATUS_REQUIRED, 'path', 'entries', 'total_entries', 'total_files'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run(project, _resolved, args) {
      const manifest = project.requireIndex();
      // The root is '' (workspacePath of '.', '' or the root's own path).
      const folder = typeof args.path === 'string' ? workspacePath(project, args.path) : '';
      let matcher: RegExp | undefined;
      if (typeof args.glob === 'string') {
        try {
          matcher = globToRegExp(workspaceGlob(args.glob, project.root));
        } catch (error) {
          if (error instanceof BadGlobError) throw codedError('invalid_input', error.message, { argument: 'glob' });
          throw error;
        }
      }
      const depth = (args.depth as number | undefined) ?? 2;
      const prefix = folder === '' ? '' : `${folder}/`;
      const files = [...indexedFiles(project, kept).values()].filter((file) => file.path.startsWith(prefix) && (!matcher || matcher.test(file.path)));
      if (folder !== '' && files.length === 0 && !matcher) throw notServed(folder);
      // Files within depth one by one; deeper ones summed per folder at the depth's edge.
      const folders = new Map<string, { files: number; size: number }>();
      const entries: Array<Record<string, unknown>> = [];
      for (const file of files) {
        const parts = file.path.slice(prefix.length).split('/');
        if (parts.length <= depth) {
          entries.push({ path: file.path, type: 'file', size: file.size, ...(file.language && { language: file.language }) });
          continue;
        }
        const at = prefix + parts.slice(0, depth).join('/');
        const sum = folders.get(at) ?? { files: 0, size: 0 };
        sum.files++;
        sum.size += file.size;
        folders.set(at, sum);
      }
      for (const [path, sum] of folders) entries.push({ path, type: 'folder', size: sum.size, files: sum.files });
      entries.sort((a, b) => (a.path as string).localeCompare(b.path as string));
      const offset = pageOffset(args.cursor, args, 'listing');
      const limit = (args.limit as number | undefined) ?? DEFAULT_LIST_ENTRIES;
      const page = entries.slice(offset, offset + limit);
      const next = offset + page.length;
      const structured: Record<string, unknown> = {
        ...statusFields(project, manifest, next < entries.length ? 'truncated' : 'complete'),
        path: folder === '' ? '.' : folder,
        entries: page,
        total_entries: entries.length,
        total_files: files.length,
      };
      const cursor = next < entries.length ? pageCursor(next, args) : undefined;
      if (cursor) structured.nextCursor = cursor;
      const lines = page.map((entry) =>
        entry.type === 'folder'
          ? `${entry.path as string}/  (${entry.files as number} files, ${entry.size as number} bytes)`
          : `${entry.path as string}  ${entry.size as number} bytes${entry.language ? `, ${entry.language as string}` : ''}`,
      );
      const where = folder === '' ? 'the project root' : folder;
      const under = `${files.length} ${files.length === 1 ? 'file' : 'files'} under ${where}${matcher ? ' matching the glob' : ''}`;
      const header = `${under}; entries ${entries.length === 0 ? 0 : offset + 1}-${next} of ${entries.length}:`;
      const footer = cursor ? [`Next page: call again with the same arguments and cursor "${cursor}".`] : [];
      return { content: [{ type: 'text', text: [header, ...lines, ...footer].join('\n') }], structuredContent: structured };
    },
  });
  return [readFile, listFiles];
}
