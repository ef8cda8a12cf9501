/** `index_status`: the state of a project's index, its running job and any interrupted one. */
import { indexSizes, readSymbolsManifest } from '../index/symbols/index.js';
import { type JobJournal, resumeCommand } from '../index/store/index.js';
import { SKIPPED_EXAMPLES } from '../index/files/index.js';
import type { ToolDefinition } from '../mcp/index.js';
import { PROJECT_SOURCES } from '../workspace/detect.js';
import type { ProjectService } from '../workspace/projects.js';
import { JOB_PROPERTIES } from './status.js';
import { projectTool } from './project-tool.js';
import { plural } from '../wording.js';

/** A job: one of this server (IndexJob.snapshot), or one read from the journal, which may say why it stopped. */
const JOB_SCHEMA = {
  type: 'object',
  properties: { ...JOB_PROPERTIES, stopped: { type: 'string' } },
  required: ['mode', 'stage', 'done', 'total', 'percent', 'started_at'],
  additionalProperties: false,
};

function describeJob(job: JobJournal): Record<string, unknown> {
  const described: Record<string, unknown> = {
    mode: job.mode,
    stage: job.stage,
    done: job.done,
    total: job.total,
    percent: job.total > 0 ? Math.min(100, Math.round((1000 * job.done) / job.total) / 10) : 0,
    started_at: job.startedAt,
  };
  if (job.stopped) described.stopped = job.stopped;
  return described;
}

export function createIndexStatusTool(projects: ProjectService): ToolDefinition {
  return projectTool(projects, {
    name: 'index_status',
    title: 'Index status',
    description:
      "Reports the state of the project's index: indexing_status (not_indexed, indexing, ready, failed), file, byte and symbol counts, when " +
      'it was last updated, ' +
      'the running index job with its progress, and any interrupted job with the command that resumes it.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: {
        workspace: { type: 'string' },
        source: { type: 'string', enum: [...PROJECT_SOURCES] },
        indexing_status: { type: 'string', enum: ['not_indexed', 'indexing', 'ready', 'failed'] },
        schema_status: {
          type: 'string',
          enum: ['compatible', 'not_indexed', 'reindex_required'],
          description: 'Whether the index on disk is of the format this server reads',
        },
        result_completeness: { type: 'string', enum: ['complete', 'partial', 'truncated'] },
        files: { type: 'integer', minimum: 0 },
        bytes: { type: 'integer', minimum: 0 },
        symbols: { type: 'integer', minimum: 0 },
        segments: { type: 'integer', minimum: 0 },
        disk_bytes: {
          type: 'object',
          description: 'Bytes on disk of each part of the index',
          properties: {
            segments: { type: 'integer', minimum: 0 },
            symbols: { type: 'integer', minimum: 0 },
            names: { type: 'integer', minimum: 0 },
            references: { type: 'integer', minimum: 0 },
            other: { type: 'integer', minimum: 0 },
            total: { type: 'integer', minimum: 0 },
          },
          required: ['segments', 'symbols', 'names', 'references', 'other', 'total'],
          additionalProperties: false,
        },
        skipped_files: {
          type: 'object',
          description:
            'Files the index left out, by reason (tooLarge, unreadable, binary, ignored, outsideLinks, brokenLinks), and files searched as ' +
            'text but given no symbols (minified, tooLargeToParse): how many, and the first few',
          additionalProperties: {
            type: 'object',
            properties: { count: { type: 'integer', minimum: 1 }, examples: { type: 'array', items: { type: 'string' } } },
            required: ['count', 'examples'],
            additionalProperties: false,
          },
        },
        updated_at: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        active_job: { oneOf: [JOB_SCHEMA, { type: 'null' }] },
        last_job: { oneOf: [JOB_SCHEMA, { type: 'null' }], description: 'The last job this server ran for the project, once it ended' },
        interrupted_job: { oneOf: [{ ...JOB_SCHEMA, properties: { ...JOB_SCHEMA.properties, resume_command: { type: 'string' } } }, { type: 'null' }] },
        error: {
          type: 'object',
          properties: { code: { type: 'string' }, message: { type: 'string' } },
          required: ['code', 'message'],
          additionalProperties: false,
        },
      },
      required: [
        'workspace',
        'source',
        'indexing_status',
        'schema_status',
        'result_completeness',
        'files',
        'bytes',
        'symbols',
        'segments',
        'disk_bytes',
        'skipped_files',
        'updated_at',
        'active_job',
        'last_job',
        'interrupted_job',
      ],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run(project, resolved) {
      const state = project.indexState();
      const live = project.job;
      const running = project.store.runningJob();
      // A job this server stopped (cancelled, failed) is its last job, not an interrupted one.
      const interrupted = project.lastJob && !project.lastJob.running ? undefined : project.store.interruptedJob();
      const manifest = state.manifest;
      // The symbols manifest's counts, not the symbols themselves: a status call must stay cheap on a large project.
      let symbols = 0;
      let unparsed: Partial<Record<string, string[]>> = {};
      try {
        const symbolsManifest = manifest ? readSymbolsManifest(project.store) : undefined;
        symbols = symbolsManifest?.symbols ?? 0;
        unparsed = symbolsManifest?.unparsed ?? {};
      } catch {
        // unreadable symbols are reported by the symbol tools (index_incompatible, index_corrupt)
      }
      const status = live || running ? 'indexing' : state.status;
      const last = project.lastJob && !project.lastJob.running ? project.lastJob : undefined;
      const structured: Record<string, unknown> = {
        workspace: project.root,
        source: resolved.source,
        indexing_status: status,
        schema_status: state.incompatible || state.corrupt ? 'reindex_required' : manifest ? 'compatible' : 'not_indexed',
        result_completeness: 'complete',
        files: manifest?.files ?? 0,
        bytes: manifest?.bytes ?? 0,
        symbols,
        segments: manifest?.segments.length ?? 0,
        disk_bytes: indexSizes(project.store),
        skipped_files: Object.fromEntries([
          ...Object.entries(manifest?.skipped ?? {})
            .filter(([, count]) => count > 0)
            .map(([reason, count]) => [reason, { count, examples: manifest?.skippedExamples?.[reason] ?? [] }]),
          ...Object.entries(unparsed).flatMap(([reason, paths]) =>
            paths && paths.length > 0 ? [[reason, { count: paths.length, examples: paths.slice(0, SKIPPED_EXAMPLES) }]] : [],
          ),
        ]),
        updated_at: manifest?.updatedAt ?? null,
        active_job: live ? live.snapshot() : running ? describeJob(running) : null,
        last_job: last ? last.snapshot() : null,
        interrupted_job: interrupted ? { ...describeJob(interrupted), resume_command: resumeCommand(interrupted, project.root) } : null,
      };
      if (state.incompatible) structured.error = { code: 'index_incompatible', message: state.incompatible };
      if (state.corrupt) structured.error = { code: 'index_corrupt', message: state.corrupt };
      const lines = [`Project ${project.root} (from ${resolved.source}): ${status}.`];
      if (manifest) {
        const disk = structured.disk_bytes as { total: number; segments: number; symbols: number; names: number; references: number };
        const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
        lines.push(`${plural(manifest.files, 'file')}, ${mb(manifest.bytes)}, ${plural(symbols, 'symbol')}; updated ${manifest.updatedAt}.`);
        lines.push(
          `On disk: ${mb(disk.total)} (text segments ${mb(disk.segments)}, symbols ${mb(disk.symbols)}, name index ${mb(disk.names)}, ` +
            `references ${mb(disk.references)}).`,
        );
        const described = (entries: Array<[string, { count: number; examples: string[] }]>): string[] =>
          entries.map(
            ([reason, { count, examples }]) =>
              `${count} ${reason}${examples.length > 0 ? ` (${examples.join(', ')}${count > examples.length ? ', …' : ''})` : ''}`,
          );
        const entries = Object.entries(structured.skipped_files as Record<string, { count: number; examples: string[] }>);
        const skipped = described(entries.filter(([reason]) => !(reason in unparsed)));
        const textOnly = described(entries.filter(([reason]) => reason in unparsed));
        if (skipped.length > 0) lines.push(`Skipped: ${skipped.join(', ')}.`);
        if (textOnly.length > 0) lines.push(`Searched as text, without symbols: ${textOnly.join(', ')}.`);
      } else if (!state.incompatible && !state.corrupt) lines.push(`Not indexed yet: run \`sextant index ${project.root}\`.`);
      if (state.incompatible) lines.push(state.incompatible);
      if (state.corrupt) lines.push(`index_corrupt: ${state.corrupt}`);
      if (live) lines.push(`Running ${live.mode} job ${live.id}: ${live.message} (${live.percent}%).`);
      else if (running) lines.push(`Running ${running.mode} job (process ${running.pid}): ${running.stage} ${running.done}/${running.total}.`);
      if (last) lines.push(`Last job ${last.id} (${last.mode}): ${last.status}${last.error ? ` — ${last.error.message}` : ''}.`);
      if (interrupted)
        lines.push(
          `An interrupted ${interrupted.mode} job (started ${interrupted.startedAt}, at ${interrupted.stage} ` +
            `${interrupted.done}/${interrupted.total}): resume with \`${resumeCommand(interrupted, project.root)}\`.`,
        );
      return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
    },
  });
}
