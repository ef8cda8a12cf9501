/**
 * The web page in the browser: the route from the URL (search at `/`, a file at `/file/…`,
 * status at `/status`), links followed without reloading, a sign-in when the server asks for a
 * token, and the keys: `/` to the search box, arrows through the results.
 */
import { el, fill } from './dom.js';
import { fileView, markLine } from './file-view.js';
import { SignInNeeded, setToken } from './mcp.js';
import { beginSignIn, finishSignIn, signInConfig } from './oauth.js';
import { searchView } from './search-view.js';
import { statusView } from './status-view.js';

const main = document.getElementById('main')!;

async function signIn(refused: boolean): Promise<void> {
  const issuer = await signInConfig();
  const field = el('input', { type: 'password', id: 'token', autocomplete: 'off', 'aria-label': 'Token' });
  const form = el(
    'form',
    { class: 'sign-in' },
    el('h2', {}, 'Sign in'),
    issuer && el('p', {}, el('button', { type: 'button', id: 'issuer-sign-in' }, `Sign in with ${new URL(issuer.issuer).host}`)),
    el(
      'p',
      {},
      refused
        ? 'The server refused that token. Enter another.'
        : `This server asks for a ${issuer ? 'sign-in or a ' : ''}token. It is kept in this tab only, and sent as a bearer header.`,
    ),
    el('label', { for: 'token' }, 'Token '),
    field,
    el('button', { type: 'submit' }, 'Sign in'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    setToken(field.value.trim() || undefined);
    void route();
  });
  if (issuer) form.querySelector('#issuer-sign-in')!.addEventListener('click', () => void beginSignIn(issuer));
  fill(main, form);
  field.focus();
}

/** Back from the issuer with a code: the address loses it at once, whatever comes of it. */
async function signedIn(): Promise<void> {
  const params = new URLSearchParams(location.search);
  history.replaceState(null, '', '/signed-in');
  const back = await finishSignIn(params);
  history.replaceState(null, '', back);
  return route();
}

/** The address (path and query) the page shows now. */
let drawn = '';
/** Aborted when the page leaves the view it shows (the status view's live feed stops). */
let leaving = new AbortController();

async function route(): Promise<void> {
  const { pathname, search } = location;
  drawn = pathname + search;
  leaving.abort();
  leaving = new AbortController();
  try {
    if (pathname === '/signed-in') await signedIn();
    else if (pathname.startsWith('/file/')) await fileView(main, pathname);
    else if (pathname === '/status') await statusView(main, leaving.signal);
    else await searchView(main, new URLSearchParams(search), go);
  } catch (error) {
    if (error instanceof SignInNeeded) return signIn(error.refused);
    fill(main, el('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error)));
  }
}

/** Goes to `url` within the page. */
function go(url: string): void {
  history.pushState(null, '', url);
  void route();
}

document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest('a');
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin) return;
  // A link within the same file only moves to its line.
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
  event.preventDefault();
  go(url.pathname + url.search + url.hash);
});

// Back and forward redraw the route; a move to another line of the file shown (the browser's own
// fragment navigation, which fires popstate too) only moves the mark.
window.addEventListener('popstate', () => void (location.pathname + location.search === drawn ? markLine() : route()));

document.addEventListener('keydown', (event) => {
  const typing = (event.target as Element).closest('input, textarea, select');
  if (event.key === '/' && !typing) {
    event.preventDefault();
    document.getElementById('q')?.focus();
    return;
  }
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const results = [...document.querySelectorAll<HTMLAnchorElement>('a.result')];
  if (results.length === 0 || (typing && event.key === 'ArrowUp')) return;
  const at = results.indexOf(document.activeElement as HTMLAnchorElement);
  const next = event.key === 'ArrowDown' ? Math.min(at + 1, results.length - 1) : Math.max(at - 1, 0);
  event.preventDefault();
  results[next]!.focus();
});

void route();
