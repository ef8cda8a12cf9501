/**
 * What the server is doing (`/status`): each project it serves, its state, the commit it answers
 * from and the one it catches up to, and the index's own account of itself.
 */
import { el, fill } from './dom.js';
import { callTool } from './mcp.js';

interface Listed {
  name: string;
  state: string;
  commit?: string;
  target_commit?: string;
  git?: string;
  folder?: string;
  error?: string;
}

export async function statusView(main: HTMLElement): Promise<void> {
  fill(main, el('h2', {}, 'Status'), el('p', { class: 'note' }, 'Asking the server…'));
  const [listed, status] = await Promise.all([callTool('list_projects', {}), callTool('index_status', {})]);
  const projects = (listed.structured.projects as Listed[] | undefined) ?? [];
  const short = (commit: string | undefined): string => (commit ? commit.slice(0, 12) : '');
  fill(
    main,
    el('h2', {}, 'Status'),
    el(
      'table',
      { class: 'projects' },
      el('caption', {}, `${projects.length} project${projects.length === 1 ? '' : 's'}`),
      el('thead', {}, el('tr', {}, ...['Project', 'State', 'Served commit', 'Target commit', 'Note'].map((name) => el('th', { scope: 'col' }, name)))),
      el(
        'tbody',
        {},
        ...projects.map((project) =>
          el(
            'tr',
            {},
            el('th', { scope: 'row' }, project.name),
            el('td', {}, project.state),
            el('td', {}, short(project.commit)),
            el('td', {}, short(project.target_commit)),
            el('td', {}, project.error ?? ''),
          ),
        ),
      ),
    ),
    el('h3', {}, 'Index'),
    el('pre', { class: 'index-status' }, status.text),
  );
}
