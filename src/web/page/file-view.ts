/**
 * A file as the project serves it (`/file/PROJECT/PATH#L42`): numbered lines, each its own
 * anchor, the symbol outline beside them (a click goes to the line), and a click on a name in the
 * code asks locate_symbol where it is defined. A large file arrives in read_file's pages.
 */
import { el, fileHref, fill } from './dom.js';
import { callTool } from './mcp.js';

interface OutlineSymbol {
  name: string;
  kind: string;
  line: number;
  qualified_name: string;
  children?: OutlineSymbol[];
}

/** Pages of read_file fetched at most to reach the line in the URL. */
const MAX_PAGES_TO_LINE = 20;

/** Where a file is: its project (`-`, the server's only one) and its path. */
function fileOf(pathname: string): { project: string | undefined; path: string } | undefined {
  const [, , project, ...rest] = pathname.split('/');
  if (!project || rest.length === 0) return undefined;
  const name = decodeURIComponent(project);
  return { project: name === '-' ? undefined : name, path: rest.map(decodeURIComponent).join('/') };
}

/** The identifier under the caret of a click in the code, if any. */
function wordAtClick(): string | undefined {
  const selection = window.getSelection();
  const node = selection?.anchorNode;
  if (!selection || !node || node.nodeType !== Node.TEXT_NODE || !selection.isCollapsed) return undefined;
  const text = node.textContent ?? '';
  let start = selection.anchorOffset;
  let end = start;
  while (start > 0 && /[\w$]/.test(text[start - 1]!)) start--;
  while (end < text.length && /[\w$]/.test(text[end]!)) end++;
  const word = text.slice(start, end);
  return /^[A-Za-z_$][\w$]*$/.test(word) ? word : undefined;
}

function outlineList(symbols: OutlineSymbol[]): HTMLElement {
  return el(
    'ul',
    {},
    ...symbols.map((symbol) =>
      el(
        'li',
        {},
        el('a', { href: `#L${symbol.line}`, class: 'symbol-link' }, el('span', { class: 'kind' }, symbol.kind), ` ${symbol.name}`),
        symbol.children && symbol.children.length > 0 ? outlineList(symbol.children) : undefined,
      ),
    ),
  );
}

/**
 * Marks the line the address names (`#L42`) and brings it into view. The page draws its routes
 * itself (history.pushState), so the browser's own :target is not to be relied on: this runs when
 * a file is drawn and on every change of the address's line.
 */
export function markLine(): void {
  for (const marked of document.querySelectorAll('.line.target')) marked.classList.remove('target');
  const line = /^#L(\d+)$/.exec(location.hash)?.[1];
  const target = line ? document.getElementById(`L${line}`) : null;
  target?.classList.add('target');
  target?.scrollIntoView({ block: 'center' });
}

export async function fileView(main: HTMLElement, pathname: string): Promise<void> {
  const where = fileOf(pathname);
  if (!where) return fill(main, el('p', { class: 'error', role: 'alert' }, 'No file named in this address.'));
  const workspace = where.project ? { workspace: where.project } : {};
  const lines = el('div', { class: 'code', id: 'code' });
  const more = el('button', { type: 'button', class: 'more', hidden: '' }, 'More lines');
  const outline = el('nav', { class: 'outline', 'aria-label': 'Outline' }, el('h2', {}, 'Outline'));
  const definitions = el('aside', { class: 'definitions', 'aria-live': 'polite' });
  fill(
    main,
    el('h2', { class: 'file' }, where.path, where.project ? el('span', { class: 'project' }, ` ${where.project}`) : undefined),
    el('div', { class: 'file-layout' }, outline, el('div', {}, lines, more), definitions),
  );
  let next = 1;
  const load = async (): Promise<boolean> => {
    const page = await callTool('read_file', { path: where.path, start_line: next, ...workspace });
    if (page.isError) {
      lines.append(el('p', { class: 'error', role: 'alert' }, page.text));
      return false;
    }
    const start = page.structured.start_line as number;
    const text = page.structured.text as string;
    const shown = text === '' ? [] : text.split('\n');
    shown.forEach((line, at) => {
      const number = start + at;
      lines.append(el('div', { class: 'line', id: `L${number}` }, el('a', { class: 'n', href: `#L${number}` }, String(number)), el('code', {}, line)));
    });
    const after = page.structured.next_start_line as number | undefined;
    if (after) next = after;
    more.toggleAttribute('hidden', after === undefined);
    return after !== undefined;
  };
  more.addEventListener('click', () => void load());
  const wanted = Number(/^#L(\d+)$/.exec(location.hash)?.[1] ?? 0);
  for (let pages = 0; (await load()) && wanted >= next && pages < MAX_PAGES_TO_LINE; pages++);
  markLine();
  lines.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) return;
    const name = wordAtClick();
    if (!name) return;
    fill(definitions, el('p', { class: 'note' }, `Where is ${name} defined…`));
    void callTool('locate_symbol', { name, ...workspace }).then((located) => {
      const symbols = (located.structured.symbols as Array<{ name: string; path: string; line: number; kind: string; project?: string }> | undefined) ?? [];
      fill(
        definitions,
        el('h2', {}, `Definitions of ${name}`),
        symbols.length === 0
          ? el('p', { class: 'note' }, located.isError ? located.text : 'None found.')
          : el(
              'ul',
              {},
              ...symbols.map((symbol) =>
                el(
                  'li',
                  {},
                  el('a', { href: fileHref(symbol.project ?? where.project, symbol.path, symbol.line) }, `${symbol.kind} ${symbol.path}:${symbol.line}`),
                ),
              ),
            ),
      );
    });
  });
  const symbols = await callTool('get_file_outline', { path: where.path, ...workspace });
  outline.append(symbols.isError ? el('p', { class: 'note' }, symbols.text) : outlineList((symbols.structured.symbols as OutlineSymbol[] | undefined) ?? []));
}
