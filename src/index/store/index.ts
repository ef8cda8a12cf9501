/**
 * Where indexes live and how they change: the Sextant home, one folder per project, the manifest,
 * the job lock and journal, and atomic commits.
 */

export { IndexCorruptError, IndexIncompatibleError, type Manifest, unsearchedFiles } from './manifest.js';
export { findIndexedProject, resolveRoot } from './project-root.js';
export { fileStamp, indexFolders, IndexStore, type JobJournal, resumeCommand, sextantHome } from './store.js';
