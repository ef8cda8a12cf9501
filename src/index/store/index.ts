/**
 * Where indexes live and how they change: the Sextant home, one folder per project, the manifest,
 * the job lock and journal, and atomic commits.
 */
export { INDEX_FORMAT_VERSION, IndexCorruptError, IndexIncompatibleError, type Manifest, newSegmentName, SEGMENT_NAME, unsearchedFiles } from './manifest.js';
export { findIndexedProject, resolveRoot } from './project-root.js';
export { fileStamp, indexFolders, IndexStore, type JobJournal, resumeCommand, setLockThread, sextantHome } from './store.js';
