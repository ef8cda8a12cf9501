/**
 * search_code over several projects at once: each project answers as it would alone (answers.ts,
 * its first `end` results certain), and the answers are merged by the ranking's own order, so the
 * results of one project keep the order it gives them alone. A project that cannot answer now is
 * named (spanning.ts) and never holds the others up; a page ends where every project's certain
 * results allow, and the cursor goes on across all of them.
 */
import { rankOrder, type Ranked } from '../../index/search/index.js';
import { BusyError, CodedError } from '../../errors.js';
import type { JsonObject, ToolOutcome } from '../../mcp/index.js';
import { clipText } from '../../jsonrpc/index.js';
import { pageCursor, pageOffset } from '../limits.js';
import type { Completeness } from '../status.js';
import { listedIncomplete, readinessOf, spanNotes, tagOf, type Incomplete, type Spanned } from '../spanning.js';
import type { Answer, SearchAnswers } from './answers.js';
import type { IndexStamps } from '../../workspace/project.js';
import type { ChangeFence } from '../../index/store/index.js';
import type { SearchPool } from '../../index/search/threads/index.js';
import { clipResult, fitsBudget, linesOf } from './search-results.js';
import { DEFAULT_SEARCH_RESULTS, MAX_ECHO_CHARS, searchQueryOf } from './arguments.js';

interface Answered {
  member: Spanned;
  answer: Answer;
  cached: boolean;
}

/** The first `count` of several ranked lists, merged by rank; a tie goes to the earlier list, and each list keeps its own order. */
function merged(lists: Array<{ ranked: Ranked[]; from: number }>, count: number): Array<{ item: Ranked; from: number }> {
  const heads = lists.map(() => 0);
  const out: Array<{ item: Ranked; from: number }> = [];
  while (out.length < count) {
    let best = -1;
    for (let list = 0; list < lists.length; list++) {
      const item = lists[list]!.ranked[heads[list]!];
      if (item && (best < 0 || rankOrder(item, lists[best]!.ranked[heads[best]!]!) < 0)) best = list;
    }
    if (best < 0) break;
    out.push({ item: lists[best]!.ranked[heads[best]!++]!, from: lists[best]!.from });
  }
  return out;
}

/**
 * Why a project's search did not answer, when the failure is its own: too busy, over its time
 * budget there, or failing. A bad argument (a pattern, a glob) fails every project alike, and is
 * the caller's to hear as it would from one project: undefined.
 */
function ownFailure(member: Spanned, error: unknown): Incomplete | undefined {
  if (error instanceof BusyError) return { project: member.label, state: 'busy', reason: error.message };
  if (error instanceof CodedError && error.code === 'invalid_input') return undefined;
  if (error instanceof CodedError && error.code === 'pattern_too_expensive')
    return { project: member.label, state: 'busy', reason: 'the search ran over its time budget there' };
  return { project: member.label, state: 'failed', reason: error instanceof Error ? error.message : String(error) };
}

export async function searchAcross(
  members: Spanned[],
  args: JsonObject,
  answers: SearchAnswers,
  pool: SearchPool,
  autoIndex: boolean,
  fence?: ChangeFence,
): Promise<ToolOutcome> {
  const offset = pageOffset(args.cursor, args, 'search');
  const limit = (args.limit as number | undefined) ?? DEFAULT_SEARCH_RESULTS;
  const end = offset + limit;
  const incomplete: Incomplete[] = [];
  const searched: Array<{ member: Spanned; query: ReturnType<typeof searchQueryOf>; at: IndexStamps }> = [];
  // The arguments are checked once, whatever is ready. Without a path glob (read against each
  // project's root), every project is asked one query.
  const first = members.length === 0 ? undefined : searchQueryOf(args, members[0]!.project);
  const shared = typeof args.path === 'string' ? undefined : first;
  // Every change to an index made before this call is known to its folder's watch from here on.
  const fenced = (await fence?.passed()) ?? false;
  for (const member of members) {
    // Each project's index as it is at this moment, read once for every question asked of it here.
    const at = member.project.stamps(fenced);
    const ready = readinessOf(member, autoIndex, at);
    if (ready.incomplete) incomplete.push(ready.incomplete);
    if (ready.manifest) searched.push({ member, query: shared ?? searchQueryOf(args, member.project), at });
  }
  const got = await answers.answerMany(
    pool,
    searched.map(({ member, query, at }) => ({ project: member.project, query, at })),
    end,
  );
  const answered: Answered[] = [];
  let overBudget: unknown;
  for (const [index, outcome] of got.entries()) {
    const { member } = searched[index]!;
    if (!(outcome instanceof Error)) {
      answered.push({ member, answer: outcome.value, cached: outcome.cached });
      continue;
    }
    const own = ownFailure(member, outcome);
    // A bad argument is so everywhere: the caller hears it as it would from one project.
    if (!own) throw outcome;
    incomplete.push(own);
    if (outcome instanceof CodedError && outcome.code === 'pattern_too_expensive') overBudget ??= outcome;
  }
  // Over its budget everywhere it ran, and nowhere answered: as a search of one project would be.
  if (answered.length === 0 && overBudget !== undefined) throw overBudget;

  const ranked = merged(
    answered.map((one, from) => ({ ranked: one.answer.ranked.slice(0, end), from })),
    end,
  );
  const page = ranked.slice(offset).map(({ item, from }) => {
    const { member } = answered[from]!;
    // describe() makes a new object each time: named on it, not copied by a spread (one per result).
    const result = clipResult(item.describe());
    result.project = member.label;
    if (member.commit) result.commit = member.commit;
    return { match: item.match, result, member };
  });
  const fits = fitsBudget(page, 4_000);
  const shown = page.slice(0, fits);
  const next = offset + shown.length;
  const total = answered.reduce((sum, one) => sum + one.answer.ranked.length, 0);
  const uncertain = answered.some((one) => one.answer.certainty !== undefined);
  const more = answered.some((one) => one.answer.result.truncated);
  let completeness: Completeness = uncertain || more ? 'truncated' : 'complete';
  if (incomplete.length > 0 || answered.some((one) => one.answer.result.partial === true)) completeness = 'partial';

  const notes: string[] = [];
  if (fits < page.length) notes.push(`Cut to ${fits} results to stay within the output budget; continue with the cursor.`);
  if (uncertain) notes.push('Some projects were read only until their first results were certain (no unread match ranks above them); the cursor continues.');
  if (more) notes.push('Some projects hold more matches than were ranked: narrow the query, the path or the projects.');
  const shownMembers = [...new Set(shown.map((item) => item.member))];
  notes.push(...spanNotes(shownMembers, answered.length, incomplete));
  const cursor = next < total || uncertain ? pageCursor(next, args) : undefined;
  const structured: Record<string, unknown> = {
    result_completeness: completeness,
    results: shown.map((item) => item.result),
    total_matches: total,
    projects_searched: answered.length,
    duration_ms: Math.max(0, ...answered.map((one) => one.answer.result.stats.durationMs)),
    ...(incomplete.length > 0 && { projects_incomplete: listedIncomplete(incomplete) }),
  };
  if (answered.length > 0 && answered.every((one) => one.cached)) structured.cached = true;
  if (cursor) structured.nextCursor = cursor;
  structured.note = notes.join(' ');
  if (cursor) notes.push(`Next page: call again with the same arguments and cursor "${cursor}".`);
  const pattern = clipText(JSON.stringify(args.query), MAX_ECHO_CHARS);
  const projectsWord = `${answered.length} project${answered.length === 1 ? '' : 's'}`;
  const header =
    total === 0
      ? `No matches for ${pattern} in ${projectsWord}.`
      : `${total}${more || uncertain ? '+' : ''} ${total === 1 ? 'match' : 'matches'} in ${projectsWord}; showing ${offset + 1}-${next}` +
        `${cursor ? ' (more with the cursor)' : ''}:`;
  const context = (args.context_lines as number | undefined) ?? 0;
  const groups = shown.map((item) => linesOf(item).map((line) => `${tagOf(item.member)} ${line}`));
  const body = context > 0 ? groups.flatMap((lines, index) => (index === 0 ? lines : ['--', ...lines])) : groups.flat();
  return { content: [{ type: 'text', text: [header, ...body, ...notes].join('\n') }], structuredContent: structured };
}
