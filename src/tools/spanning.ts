/**
 * What the tools that answer across several projects at once share (search_code, locate_symbol):
 * the `projects` argument, the fields that name each result's project, and whether each project
 * can answer now: one that is behind, being indexed or failing is named in the answer, and never
 * holds the others up.
 */
import type { Manifest } from '../index/store/index.js';
import { withoutCredentials } from '../util/credentials.js';
import type { IndexStamps, Project } from '../workspace/project.js';
import type { SpanMember } from '../workspace/projects.js';
import { MAX_SPAN_ENTRIES } from '../workspace/span.js';
import { MAX_PATH_CHARS } from './limits.js';

/** A project of a span as a tool works on it. */
export interface Spanned extends SpanMember {
  readonly project: Project;
  /** For a project from a git remote: the commit it serves. */
  readonly commit?: string;
}

export const PROJECTS_PROPERTY = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_SPAN_ENTRIES,
  items: { type: 'string', minLength: 1, maxLength: MAX_PATH_CHARS },
  description:
    'Several projects at once, their results ranked together: names of projects registered on this server (list_projects), globs over ' +
    'their names ("pay*"), absolute paths, or ["*"] for every project you may see. Default, when neither this nor workspace is given: the ' +
    "session's project; all of them when the client's roots (or the server's --workspace folders) are several, or when the server has " +
    'named projects and no default one.',
};

/** What names a result's project when the answer spans several. */
export const RESULT_PROJECT_PROPERTIES = {
  project: { type: 'string', description: "When the answer spans several projects: the project this result is in (its name, or a folder's path)" },
  commit: { type: 'string', description: 'When the answer spans several projects and this one is served from git: the commit it was served from' },
};

const INCOMPLETE_STATES = ['not_indexed', 'indexing', 'behind', 'failed', 'busy'] as const;
type IncompleteState = (typeof INCOMPLETE_STATES)[number];

/** A project of a span that did not answer, or answered from an older commit than it should. */
export interface Incomplete {
  project: string;
  state: IncompleteState;
  reason: string;
}

/** What an answer across several projects says of them (`workspace`, `indexing_status` and `updated_at` are then left out). */
export const SPAN_OUTPUT_PROPERTIES = {
  projects_searched: {
    type: 'integer',
    minimum: 0,
    description: 'The answer spans several projects (each result names its project): how many of them answered',
  },
  projects_incomplete: {
    type: 'array',
    description:
      'Projects of the span that did not answer (not indexed, being indexed, failing, or too busy) or that answered from an older commit ' +
      'than their target (behind): the others answered without them',
    items: {
      type: 'object',
      properties: { project: { type: 'string' }, state: { type: 'string', enum: INCOMPLETE_STATES }, reason: { type: 'string' } },
      required: ['project', 'state', 'reason'],
      additionalProperties: false,
    },
  },
};

/** The fields a one-project answer always has and a spanning one leaves out. */
export const ONE_PROJECT_FIELDS = ['workspace', 'indexing_status', 'updated_at'];

/**
 * Whether a project of a span can answer now (its manifest) and what is said of it when it cannot,
 * or answers from behind. One with no index starts indexing when the server indexes on demand.
 */
export function readinessOf(member: Spanned, autoIndex: boolean, at?: IndexStamps): { manifest?: Manifest; incomplete?: Incomplete } {
  const { project, named, label } = member;
  const state = project.indexState(at);
  if (state.incompatible || state.corrupt) {
    return { incomplete: { project: label, state: 'failed', reason: 'its index cannot be read: run sync_repo with workspace set to it' } };
  }
  const failure = named?.state === 'failed' ? `its catch-up failed: ${withoutCredentials(named.error ?? 'unknown error')}` : undefined;
  if (!state.manifest) {
    if (failure) return { incomplete: { project: label, state: 'failed', reason: failure } };
    if (named?.git) return { incomplete: { project: label, state: 'indexing', reason: `not served yet (${named.state})` } };
    if (autoIndex && !project.job && state.status !== 'indexing') {
      try {
        project.startJob('index');
      } catch {
        // another process indexes it: said below
      }
    }
    const job = project.job;
    if (job || state.status === 'indexing') {
      return { incomplete: { project: label, state: 'indexing', reason: job ? `being indexed (job ${job.id}, ${job.percent}%)` : 'being indexed' } };
    }
    return { incomplete: { project: label, state: 'not_indexed', reason: 'not indexed: run index_repo with workspace set to it' } };
  }
  // Searched now: kept current from here on, as a project searched alone is (its watcher starts).
  project.requireIndex(state);
  if (named?.git && named.targetCommit !== undefined && named.servedCommit !== named.targetCommit) {
    const served = named.servedCommit ? `answered from commit ${named.servedCommit}` : 'answered';
    const reason = `${served} while catching up to ${named.targetCommit}${failure ? `; ${failure}` : ` (${named.state})`}`;
    return { manifest: state.manifest, incomplete: { project: label, state: failure ? 'failed' : 'behind', reason } };
  }
  return { manifest: state.manifest };
}

/** How a result's line names its project in the text: `[web@0123456789ab]`, or `[web]` for one not served from git. */
export function tagOf(member: Spanned): string {
  return `[${member.label}${member.commit ? `@${member.commit.slice(0, 12)}` : ''}]`;
}

/** Incomplete projects listed in an answer's structure, at most; the text says how many more. */
const LISTED_INCOMPLETE = 50;

/** The text that names the projects a spanning answer came from, and those that did not answer. */
export function spanNotes(shown: Spanned[], searched: number, incomplete: Incomplete[]): string[] {
  const notes: string[] = [];
  const served = shown.filter((member) => member.commit).map((member) => `${member.label} at commit ${member.commit}`);
  notes.push(`Searched ${searched} project${searched === 1 ? '' : 's'}${served.length > 0 ? `; results from ${served.join(', ')}` : ''}.`);
  if (incomplete.length > 0) {
    const listed = incomplete.slice(0, LISTED_INCOMPLETE).map((entry) => `${entry.project} (${entry.state}: ${entry.reason})`);
    const more = incomplete.length > listed.length ? `, and ${incomplete.length - listed.length} more` : '';
    notes.push(`Not complete for ${incomplete.length} project${incomplete.length === 1 ? '' : 's'}: ${listed.join('; ')}${more}.`);
  }
  return notes;
}

/** `projects_incomplete` as the structure carries it. */
export function listedIncomplete(incomplete: Incomplete[]): Incomplete[] {
  return incomplete.slice(0, LISTED_INCOMPLETE);
}
