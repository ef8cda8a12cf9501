/**
 * list_projects: the projects this server serves by name (registered with `sextant project add`),
 * so that a remote agent can name one in `workspace` (or `?project=`) instead of a path on the
 * server. For each: where its files come from, and for a git project the commit served now and
 * the one it is catching up to.
 */
import { withoutCredentials } from '../util/credentials.js';
import { callerOf, type Caller } from '../caller.js';
import type { ToolDefinition } from '../mcp/index.js';
import type { ProjectService } from '../workspace/projects.js';

const STATES = ['waiting', 'fetching', 'indexing', 'ready', 'failed'];

export function createListProjectsTool(projects: ProjectService): ToolDefinition {
  return {
    name: 'list_projects',
    title: 'List projects',
    description:
      'Lists the projects registered on this server by name, which the `workspace` argument of every other tool accepts: for each, its git ' +
      'remote and branch (or folder), ' +
      'its state (waiting, fetching, indexing, ready, failed), the commit served now and the commit it is catching up to.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: {
        projects: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              git: { type: 'string' },
              ref: { type: 'string' },
              folder: { type: 'string' },
              state: { type: 'string', enum: STATES },
              commit: { type: 'string', description: 'The commit answers come from now' },
              target_commit: { type: 'string', description: 'The commit the controller published, which this server catches up to' },
              error: { type: 'string' },
            },
            required: ['name', 'state'],
            additionalProperties: false,
          },
        },
        result_completeness: { type: 'string', enum: ['complete'] },
      },
      required: ['projects', 'result_completeness'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run(_args, context) {
      // A remote caller names a project by its name: where its files are on the server is not its business.
      const caller = callerOf(context.extra as { caller?: Caller } | undefined);
      const { reach } = caller;
      const mask = projects.pathMask(caller);
      // Only what the caller may see: a project it may not is not listed, not even by name.
      const listed = projects.visible(caller).map((project) => ({
        name: project.name,
        ...(project.git ? { git: withoutCredentials(project.git.url), ref: project.git.ref } : reach === 'remote' ? {} : { folder: project.root }),
        state: project.state,
        ...(project.servedCommit && { commit: project.servedCommit }),
        ...(project.targetCommit && { target_commit: project.targetCommit }),
        ...(project.error && { error: mask(withoutCredentials(project.error)) }),
      }));
      const lines = listed.map((project) => {
        const from = 'git' in project ? `${project.git} ${project.ref}` : 'folder' in project ? `folder ${project.folder}` : 'a folder on the server';
        const at = project.commit ? ` at ${project.commit.slice(0, 12)}` : '';
        const behind = project.target_commit && project.target_commit !== project.commit ? `, catching up to ${project.target_commit.slice(0, 12)}` : '';
        return `${project.name}: ${from}${at} (${project.state}${behind})${project.error ? `: ${project.error}` : ''}`;
      });
      const text =
        listed.length === 0
          ? 'No project is registered on this server by name (sextant project add NAME --git URL); tools take an absolute path in `workspace`.'
          : `${listed.length} project${listed.length === 1 ? '' : 's'} (name them in \`workspace\`):\n${lines.join('\n')}`;
      return { content: [{ type: 'text', text }], structuredContent: { projects: listed, result_completeness: 'complete' } };
    },
  };
}
