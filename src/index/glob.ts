/**
 * Path globs for search filters, matched against workspace-relative `/` paths: `*` (within a
 * segment), `**` (any depth), `?`, `[abc]`, `{a,b}`. A glob without `/` matches at any depth,
 * like ripgrep's `--glob`.
 */
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
        source += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
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
  return new RegExp(anchored);
}
