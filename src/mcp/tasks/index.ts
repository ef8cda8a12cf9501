/**
 * Tasks (the 2025-11-25 task methods and the 2026-07-28 tasks extension): the store that runs a
 * tool's work as a task and answers for it (store.ts), what a tool may ask of it (extension.ts),
 * and what a task is on the wire and in the ledger (record.ts).
 */
export { declaresTasks, requireTasks, type TaskControl, TASKS_EXTENSION, TaskStarted } from './extension.js';
export { TaskStore } from './store.js';
