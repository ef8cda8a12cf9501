/**
 * Building the page's elements. Text only ever goes in as text (textContent, attribute values):
 * nothing a server, a file or a file name holds is parsed as HTML, so `<script>` in code or in a
 * file name shows as what it is.
 */
type Child = Node | string | undefined | false;

/** An element with `attributes` (set as values, never as markup) and `children` (strings become text). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child !== undefined && child !== false) element.append(child);
  return element;
}

/** Replaces everything in `parent` with `children`. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children.filter((child): child is Node | string => child !== undefined && child !== false));
}

/** `text` with every case-insensitive (or exact) occurrence of `needle` marked. */
export function highlighted(text: string, needle: string, caseSensitive: boolean): Array<Node | string> {
  if (needle === '') return [text];
  const haystack = caseSensitive ? text : text.toLowerCase();
  const wanted = caseSensitive ? needle : needle.toLowerCase();
  const out: Array<Node | string> = [];
  let at = 0;
  for (let found = haystack.indexOf(wanted); found >= 0; found = haystack.indexOf(wanted, found + wanted.length)) {
    if (found > at) out.push(text.slice(at, found));
    out.push(el('mark', {}, text.slice(found, found + wanted.length)));
    at = found + wanted.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** The page's path for a file of `project` (`-`: the server's only project) at `line`. */
export function fileHref(project: string | undefined, path: string, line?: number): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `/file/${encodeURIComponent(project ?? '-')}/${encoded}${line ? `#L${line}` : ''}`;
}
