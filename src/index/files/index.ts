/**
 * A project's files: the walk (ignore rules, links, limits) and its cache, globs, languages, and
 * the one guarded way to read a project file (ProjectFiles).
 */

export { BadGlobError, globToRegExp, workspaceGlob } from './glob.js';
export { KNOWN_LANGUAGES } from './languages.js';
export { ProjectFiles } from './project-file.js';
export { SKIPPED_EXAMPLES } from './walk.js';
