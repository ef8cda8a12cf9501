/**
 * What the server is doing (`/status`), live: the server pushes (`/status/events`) the projects
 * the viewer may see (state, the commit served and the one caught up to, files, index size, last
 * update), each index job as it moves, and to an operator the replicas of a team and the open
 * MCP sessions. A list of what happened lets a reader see a job that came and went.
 */
import { el, fill } from './dom.js';
import { followEvents, SignInNeeded } from './mcp.js';

interface Job {
  project: string;
  id: string;
  mode: string;
  stage: string;
  message: string;
  percent: number;
  status: string;
}

interface ProjectRow {
  name: string;
  state: string;
  commit?: string;
  target_commit?: string;
  files?: number;
  bytes?: number;
  index_bytes?: number;
  updated_at?: string;
  job?: Job;
  error?: string;
}

interface Replica {
  id: string;
  started_at: string;
  seen_at: string;
  controller: boolean;
  self: boolean;
}

interface Session {
  transport: string;
  protocol_version?: string;
  client?: { name: string; version: string };
  opened_at: string;
}

interface Status {
  server: { version: string; started_at?: string };
  projects: ProjectRow[];
  sessions?: Session[];
  replicas?: Replica[];
  replicas_problem?: string;
}

/** Entries kept in the list of what happened. */
const ACTIVITY_KEPT = 50;
/** Wait before following the feed again once the server ended it. */
const RECONNECT_MS = 2_000;

/** A commit is shown by its first characters, as git's short form is. */
const SHORT_COMMIT = 12;
const MB = 1e6;
const KB = 1e3;

const short = (commit: string | undefined): string => (commit ? commit.slice(0, SHORT_COMMIT) : '');
const size = (bytes: number | undefined): string =>
  bytes === undefined ? '' : bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / KB))} kB`;
const when = (iso: string | undefined): string => (iso ? new Date(iso).toLocaleString() : '');

function table(caption: string, heads: string[], rows: Array<Array<string | Node>>): HTMLTableElement {
  return el(
    'table',
    {},
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, ...heads.map((head) => el('th', { scope: 'col' }, head)))),
    el('tbody', {}, ...rows.map(([first, ...rest]) => el('tr', {}, el('th', { scope: 'row' }, first), ...rest.map((cell) => el('td', {}, cell))))),
  );
}

function progressOf(job: Job): HTMLElement {
  return el(
    'span',
    { class: 'job' },
    el('progress', { max: '100', value: String(job.percent), 'aria-label': `${job.project}: ${job.mode} job` }),
    ` ${job.percent}%: ${job.message}`,
  );
}

function drawProjects(into: HTMLElement, status: Status): void {
  const count = `${status.projects.length} project${status.projects.length === 1 ? '' : 's'}`;
  fill(
    into,
    table(
      count,
      ['Project', 'State', 'Served commit', 'Target commit', 'Files', 'Size', 'Index', 'Last update', 'Job or note'],
      status.projects.map((project) => [
        project.name,
        project.state,
        short(project.commit),
        short(project.target_commit),
        project.files === undefined ? '' : project.files.toLocaleString(),
        size(project.bytes),
        size(project.index_bytes),
        when(project.updated_at),
        project.job ? progressOf({ ...project.job, project: project.name }) : (project.error ?? ''),
      ]),
    ),
  );
}

function drawOperator(into: HTMLElement, status: Status): void {
  if (!status.sessions) return fill(into);
  const replicas =
    status.replicas &&
    table(
      `${status.replicas.length} replica${status.replicas.length === 1 ? '' : 's'}`,
      ['Replica', 'Role', 'Started', 'Last seen'],
      status.replicas.map((replica) => [
        `${replica.id}${replica.self ? ' (this one)' : ''}`,
        replica.controller ? 'controller' : 'follower',
        when(replica.started_at),
        when(replica.seen_at),
      ]),
    );
  fill(
    into,
    el('h3', {}, 'Team'),
    status.replicas_problem ? el('p', { class: 'error' }, status.replicas_problem) : replicas || el('p', { class: 'note' }, 'Not a team server.'),
    el('h3', {}, 'Sessions'),
    table(
      `${status.sessions.length} open session${status.sessions.length === 1 ? '' : 's'}`,
      ['Transport', 'Revision', 'Client', 'Opened'],
      status.sessions.map((session) => [
        session.transport,
        session.protocol_version ?? 'not initialized',
        session.client ? `${session.client.name} ${session.client.version}` : '',
        when(session.opened_at),
      ]),
    ),
    el('p', { class: 'note' }, 'Calls of the stateless revision (2026-07-28) hold no session, and are not listed.'),
  );
}

export async function statusView(main: HTMLElement, signal: AbortSignal): Promise<void> {
  const heading = el('p', { class: 'note' }, 'Asking the server…');
  const projects = el('section', { 'aria-label': 'Projects' });
  const operator = el('section', { 'aria-label': 'Team and sessions' });
  const activity = el('ul', { id: 'activity', class: 'activity', 'aria-live': 'polite' });
  fill(main, el('h2', {}, 'Status'), heading, projects, operator, el('h3', {}, 'What happened'), activity);
  const stages = new Map<string, string>();
  const log = (text: string): void => {
    activity.prepend(el('li', {}, el('time', {}, new Date().toLocaleTimeString()), ` ${text}`));
    while (activity.children.length > ACTIVITY_KEPT) activity.lastElementChild!.remove();
  };
  const onEvent = (event: string, data: unknown): void => {
    if (event === 'status') {
      const status = data as Status;
      const since = status.server.started_at ? `, up since ${when(status.server.started_at)}` : '';
      heading.textContent = `Sextant ${status.server.version}${since}. Live: this page follows the server.`;
      drawProjects(projects, status);
      drawOperator(operator, status);
      return;
    }
    if (event !== 'job') return;
    const job = data as Job;
    const cell = [...projects.querySelectorAll('tbody tr')].find((row) => row.firstElementChild?.textContent === job.project)?.lastElementChild;
    if (job.status === 'running') {
      if (cell) fill(cell, progressOf(job));
      if (stages.get(job.id) !== job.stage) log(`${job.project}: ${job.mode} job at ${job.percent}%: ${job.message}`);
      stages.set(job.id, job.stage);
    } else {
      stages.delete(job.id);
      log(`${job.project}: ${job.mode} job ${job.status}${job.status === 'completed' ? '' : `: ${job.message}`}`);
    }
  };
  while (!signal.aborted) {
    try {
      await followEvents('/status/events', onEvent, signal);
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof SignInNeeded) throw error;
      heading.textContent = `The live feed stopped (${error instanceof Error ? error.message : String(error)}); trying again.`;
    }
    if (signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}
