/**
 * Where indexes live and how they change: the Sextant home, one folder per project, the manifest,
 * the job lock and journal, and atomic commits.
 */

export { IndexCorruptError, IndexIncompatibleError, type Manifest, unsearchedFiles } from './manifest.js';
export { findIndexedProject, resolveRoot } from './project-root.js';
export { indexFolders, sextantHome } from './home.js';
export { resumeCommand, type JobJournal } from './journal.js';
export { fileStamp, IndexStore } from './store.js';
export { ChangeFence, FolderWatch } from './change-fence.js';
