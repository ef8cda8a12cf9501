/**
 * Path globs for search filters, matched against workspace-relative `/` paths: `*` (within a
 * segment), `**` (any depth), `?`, `[abc]`, `{a,b}`. A glob without `/` matches at any depth,
 * like ripgrep's `--glob`.
 */
export class BadGlobError extends Error {
  static readonly CODE = 'SEXTANT_ERR_BAD_GLOB';
  readonly code = BadGlobError.CODE;
  /** `message` as said once (by `of`): a search worker's error is rebuilt from it on the main thread. */
  constructor(message: string) {
    super(message);
    this.name = 'BadGlobError';
  }

  static of(glob: string, reason: string): BadGlobError {
    return new BadGlobError(`Invalid path glob ${JSON.stringify(glob.length > 200 ? `${glob.slice(0, 200)}…` : glob)}: ${reason}`);
  }
}

/**
 * A glob as a workspace-relative one: an absolute glob inside the root loses the root, `.` and
 * `..` segments are resolved. A glob that leads outside the workspace is a BadGlobError: it
 * could only ever match nothing, and "no matches" would hide the mistake.
 */
export function workspaceGlob(glob: string, root: string): string {
  let relative = glob;
  if (glob.startsWith('/')) {
    const prefix = root.endsWith('/') ? root : `${root}/`;
    if (glob === root) return '**';
    if (!glob.startsWith(prefix)) throw BadGlobError.of(glob, `it is outside the workspace ${root}; use a path relative to the workspace root`);
    relative = glob.slice(prefix.length);
  }
  const segments: string[] = [];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0 || segments.at(-1)!.includes('*')) throw BadGlobError.of(glob, `it leads outside the workspace ${root}`);
      segments.pop();
    } else segments.push(segment);
  }
  if (segments.length === 0) throw BadGlobError.of(glob, 'it names no file');
  const normalized = segments.join('/');
  globToRegExp(normalized); // throws BadGlobError for what cannot compile
  // A glob that had a '/' stays anchored at the root, even when normalised down to one segment.
  return relative.includes('/') && !normalized.includes('/') ? `/${normalized}` : normalized;
}

export function globToRegExp(glob: string): RegExp {
  let source = '';
  let inBraces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        source += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else source += '[^/]*';
    } else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        source += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      inBraces++;
      source += '(?:';
    } else if (c === '}' && inBraces > 0) {
      inBraces--;
      source += ')';
    } else if (c === ',' && inBraces > 0) source += '|';
    else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  const anchored = glob.includes('/') ? `^${source.replace(/^\//, '')}$` : `(?:^|/)${source}$`;
  try {
    const compiled = new RegExp(anchored);
    // V8 compiles on first use: "too large" surfaces there, so it is made to surface here.
    compiled.test('');
    return compiled;
  } catch (error) {
    throw BadGlobError.of(glob, error instanceof Error ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(error));
  }
}
