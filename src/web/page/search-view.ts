/**
 * The search page: a query box with regex and case toggles, a project filter when the server has
 * several projects, and search_code's answer as the agent got it, in its order, grouped by file.
 * The URL holds the question (`/?q=…&regex=1&case=1&projects=a,b&cursor=…`), so a search can be shared.
 */
import { el, fileHref, fill, highlighted } from './dom.js';
import { callTool } from './mcp.js';

interface Result {
  path: string;
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
  symbol?: { name: string; kind: string; qualified_name: string; line: number };
  definition?: boolean;
  project?: string;
  commit?: string;
}

/** Results drawn per page. */
const PAGE_RESULTS = 50;

/** The question in the URL. */
interface Question {
  q: string;
  regex: boolean;
  caseSensitive: boolean;
  projects: string;
  cursor: string;
}

function questionOf(params: URLSearchParams): Question {
  return {
    q: params.get('q') ?? '',
    regex: params.get('regex') === '1',
    caseSensitive: params.get('case') === '1',
    projects: params.get('projects') ?? '',
    cursor: params.get('cursor') ?? '',
  };
}

function urlOf(question: Question): string {
  const params = new URLSearchParams();
  params.set('q', question.q);
  if (question.regex) params.set('regex', '1');
  if (question.caseSensitive) params.set('case', '1');
  if (question.projects) params.set('projects', question.projects);
  if (question.cursor) params.set('cursor', question.cursor);
  return `/?${params.toString()}`;
}

/** The matched part of a line marked: the query's own text, or what the regex matches there. */
function marked(text: string, question: Question): Array<Node | string> {
  if (!question.regex) return highlighted(text, question.q, question.caseSensitive);
  try {
    const pattern = new RegExp(question.q, question.caseSensitive ? 'g' : 'gi');
    const out: Array<Node | string> = [];
    let at = 0;
    for (const found of text.matchAll(pattern)) {
      if (found[0] === '') break;
      out.push(text.slice(at, found.index), el('mark', {}, found[0]));
      at = found.index + found[0].length;
    }
    out.push(text.slice(at));
    return out;
  } catch {
    return [text];
  }
}

/** One file's results: its name (and project, commit), then each match with its context lines. */
function fileGroup(results: Result[], question: Question): HTMLElement {
  const [first] = results;
  const heading = el(
    'h3',
    { class: 'file' },
    el('a', { href: fileHref(first!.project, first!.path) }, first!.path),
    first!.project ? el('span', { class: 'project' }, ` ${first!.project}`) : undefined,
    first!.commit ? el('span', { class: 'commit' }, ` @ ${first!.commit.slice(0, 12)}`) : undefined,
  );
  const rows = results.map((result) => {
    const before = (result.before ?? []).map((line, at, all) =>
      el('div', { class: 'context' }, el('span', { class: 'n' }, String(result.line - all.length + at)), line),
    );
    const after = (result.after ?? []).map((line, at) => el('div', { class: 'context' }, el('span', { class: 'n' }, String(result.line + at + 1)), line));
    const symbol = result.symbol ? el('span', { class: 'symbol' }, `${result.symbol.kind} ${result.symbol.qualified_name}`) : undefined;
    return el(
      'li',
      {},
      ...before,
      el(
        'a',
        { class: 'result', href: fileHref(result.project, result.path, result.line) },
        el('span', { class: 'n' }, String(result.line)),
        el('code', {}, ...marked(result.text, question)),
        result.definition ? el('span', { class: 'badge' }, 'definition') : undefined,
        symbol,
      ),
      ...after,
    );
  });
  return el('section', { class: 'group' }, heading, el('ol', { class: 'matches' }, ...rows));
}

/** Results of a page grouped by file, each group where its best result ranks. */
function grouped(results: Result[]): Result[][] {
  const groups = new Map<string, Result[]>();
  for (const result of results) {
    const key = `${result.project ?? ''}\0${result.path}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  return [...groups.values()];
}

export async function searchView(main: HTMLElement, params: URLSearchParams, go: (url: string) => void): Promise<void> {
  const question = questionOf(params);
  const input = el('input', {
    type: 'search',
    name: 'q',
    id: 'q',
    'aria-label': 'Search the code',
    placeholder: 'Search code (press / to focus)',
    autocomplete: 'off',
  });
  input.value = question.q;
  const regex = el('input', { type: 'checkbox', id: 'regex' });
  regex.checked = question.regex;
  const caseSensitive = el('input', { type: 'checkbox', id: 'case' });
  caseSensitive.checked = question.caseSensitive;
  const projects = el('input', { type: 'text', id: 'projects', 'aria-label': 'Projects (names or globs, comma-separated)', placeholder: 'all projects' });
  projects.value = question.projects;
  const projectFilter = el('label', { class: 'projects', hidden: '' }, 'Projects ', projects);
  const form = el(
    'form',
    { role: 'search', class: 'search' },
    input,
    el('label', {}, regex, ' Regex'),
    el('label', {}, caseSensitive, ' Case'),
    projectFilter,
    el('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    go(urlOf({ q: input.value, regex: regex.checked, caseSensitive: caseSensitive.checked, projects: projects.value.trim(), cursor: '' }));
  });
  const answer = el('div', { id: 'results', 'aria-live': 'polite' });
  fill(main, form, answer);
  if (!question.q) input.focus();
  // Asked first: a server that wants a token says so here (main.ts signs in), before any search.
  const listed = await callTool('list_projects', {});
  const names = (listed.structured.projects as Array<{ name: string }> | undefined) ?? [];
  if (names.length > 1) projectFilter.removeAttribute('hidden');
  if (!question.q) return;
  fill(answer, el('p', { class: 'note' }, 'Searching…'));
  const args: Record<string, unknown> = { query: question.q, limit: PAGE_RESULTS, context_lines: 1 };
  if (question.regex) args.regex = true;
  if (question.caseSensitive) args.case_sensitive = true;
  if (question.projects)
    args.projects = question.projects
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
  if (question.cursor) args.cursor = question.cursor;
  const found = await callTool('search_code', args);
  // The answer is in hand: bench/web-page.mjs reads how long drawing it took (sextant:results-drawn).
  performance.mark('sextant:answer');
  if (found.isError) return fill(answer, el('p', { class: 'error', role: 'alert' }, found.text));
  const results = (found.structured.results as Result[] | undefined) ?? [];
  // An answer over several projects (folders a server was given, which list_projects does not name) shows the filter too.
  if (found.structured.projects_searched !== undefined) projectFilter.removeAttribute('hidden');
  const header = found.text.split('\n')[0] ?? '';
  const next = found.structured.nextCursor as string | undefined;
  const note = found.structured.note as string | undefined;
  fill(
    answer,
    el('p', { class: 'summary' }, header),
    ...grouped(results).map((group) => fileGroup(group, question)),
    note ? el('p', { class: 'note' }, note) : undefined,
    next ? el('p', {}, el('a', { class: 'next', href: urlOf({ ...question, cursor: next }) }, 'Next page')) : undefined,
  );
  // Style and layout of what was drawn, done now rather than at the next frame, so the measure covers them.
  void answer.offsetHeight;
  performance.measure('sextant:results-drawn', 'sextant:answer');
}
