/**
 * The one HTML document of the web page, for every route it has (/, /file/…, /status): the app
 * (page/) draws the route from the URL. It holds no script of its own and no data: what the page
 * shows comes from MCP calls made with the viewer's own credential, so the document is the same
 * for everyone and needs none.
 */

/** The document. Relative to the root, so a route's depth never changes where the files are. */
export const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Sextant</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body>
<header class="bar">
<h1 class="brand"><a href="/">Sextant</a></h1>
<nav aria-label="Pages"><a href="/">Search</a> <a href="/status">Status</a></nav>
</header>
<main id="main" tabindex="-1"><noscript>This page needs JavaScript. Agents use the MCP endpoint, /mcp.</noscript></main>
</body>
</html>
`;

/**
 * What every answer of the page carries. No script but the page's own file (no inline script, no
 * eval), no frame may hold it, it talks only to this server (and, to sign in, to the issuer's
 * token endpoint: `connect`, origins), and it tells no referrer.
 */
export function pageHeaders(connect: readonly string[] = []): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      ['connect-src', "'self'", ...connect].join(' '),
      "img-src 'self' data:",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

export const PAGE_HEADERS = pageHeaders();
