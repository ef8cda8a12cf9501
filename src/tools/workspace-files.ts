/** The project's files as the tools take them: paths checked against the workspace, and lines read once per call. */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { lineStartsOf } from '../index/text/index.js';
import { ProjectFiles } from '../index/files/index.js';
import type { Project } from '../workspace/project.js';
import { codedError } from '../errors.js';

const PATH_REMEDY = 'Use a path inside the workspace: relative to its root, as search results list them.';

/**
 * A path argument as a workspace-relative path ('/'-separated): relative to the root, or
 * absolute inside it. `..`, other absolute paths and symlinks that lead out are invalid_input;
 * nothing outside the workspace is read.
 */
export function workspacePath(project: Project, value: string): string {
  const absolute = isAbsolute(value) ? value : resolve(project.root, value);
  const inside = (path: string): boolean => path === project.root || path.startsWith(project.root.endsWith(sep) ? project.root : `${project.root}${sep}`);
  if (!inside(absolute)) throw codedError('invalid_input', `Path ${value} is outside the workspace ${project.root}`, { argument: 'path' }, PATH_REMEDY);
  let real = absolute;
  try {
    // The system's realpath: one call, where the JavaScript one takes an lstat per part of the path.
    real = realpathSync.native(absolute);
  } catch {
    // not on disk: checked against the index below
  }
  if (!inside(real))
    throw codedError('invalid_input', `Path ${value} leads outside the workspace ${project.root} (through a symlink)`, { argument: 'path' }, PATH_REMEDY);
  return relative(project.root, real).split(sep).join('/');
}

/**
 * Lines `from`-`to` (1-based, inclusive, clamped) of the project's files, for one tool call: each
 * file is read once and kept as its text and line starts, not as a string per line (a ranking
 * may look at a few lines of hundreds of large files). A file ProjectFiles does not read has no lines.
 */
export function projectLines(root: string): (path: string, from: number, to: number) => string[] {
  const files = new Map<string, { text: string; starts: Int32Array }>();
  let reader: ProjectFiles | undefined;
  return (path, from, to) => {
    let file = files.get(path);
    if (!file) {
      const text = (reader ??= new ProjectFiles(root)).text(path) ?? '';
      file = { text, starts: text === '' ? new Int32Array(0) : lineStartsOf(text) };
      files.set(path, file);
    }
    const { text, starts } = file;
    const lines: string[] = [];
    for (let line = Math.max(1, from); line <= Math.min(to, starts.length); line++) {
      lines.push(text.slice(starts[line - 1]!, line < starts.length ? starts[line]! - 1 : text.length));
    }
    return lines;
  };
}
