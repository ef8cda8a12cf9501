/**
 * Signing in through the team's authorization server, when the server names one for the page
 * (`--oauth-issuer` with `--web-client-id`): the authorization code flow with PKCE, as a public
 * client (OAuth 2.1). The verifier and the state wait in this tab's session storage while the
 * browser is at the issuer; the code comes back to /signed-in, is traded for an access token at
 * the issuer's token endpoint, and leaves the address bar at once.
 */
import { setToken } from './mcp.js';

export interface SignInConfig {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  client_id: string;
  resource: string;
  scope: string;
  redirect_path: string;
}

const PENDING_KEY = 'sextant-sign-in';
/** Random bytes in the PKCE verifier and in the state (RFC 7636 asks for at least 32 for the verifier). */
const RANDOM_BYTES = 32;

let config: Promise<SignInConfig | undefined> | undefined;

/** How this server's page signs in through an issuer, if it does. */
export function signInConfig(): Promise<SignInConfig | undefined> {
  config ??= fetch('/page-config.json', { credentials: 'omit' })
    .then((response): Promise<{ sign_in?: SignInConfig }> | { sign_in?: SignInConfig } => (response.ok ? response.json() : {}))
    .then((body) => body.sign_in)
    .catch(() => undefined);
  return config;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const random = (): string => base64url(crypto.getRandomValues(new Uint8Array(RANDOM_BYTES)));

/** Sends the browser to the issuer; it comes back to /signed-in. */
export async function beginSignIn(sign: SignInConfig): Promise<void> {
  const verifier = random();
  const state = random();
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  // Where to come back to: never /signed-in itself, so a reload there does not trade a spent code.
  const back = location.pathname === sign.redirect_path ? '/' : location.pathname + location.search + location.hash;
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, back }));
  const url = new URL(sign.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: sign.client_id,
    redirect_uri: location.origin + sign.redirect_path,
    scope: sign.scope,
    resource: sign.resource,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.href);
}

/**
 * Back from the issuer: trades the code for a token (kept like a pasted one) and returns where
 * the viewer was. A state that is not this tab's, or an answer with an error, is refused.
 */
export async function finishSignIn(params: URLSearchParams): Promise<string> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as { verifier: string; state: string; back: string } | null;
  sessionStorage.removeItem(PENDING_KEY);
  const sign = await signInConfig();
  if (!sign) throw new Error('This server does not sign in through an issuer.');
  // The state first: an address made by someone else must not put their words on this page.
  if (!pending || params.get('state') !== pending.state) throw new Error('This sign-in was not started in this tab: sign in again.');
  if (params.get('error')) throw new Error(`The issuer did not sign you in: ${params.get('error_description') ?? params.get('error')}.`);
  const code = params.get('code');
  if (!code) throw new Error('The issuer sent no code: sign in again.');
  const response = await fetch(sign.token_endpoint, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: location.origin + sign.redirect_path,
      client_id: sign.client_id,
      code_verifier: pending.verifier,
      resource: sign.resource,
    }),
  });
  const answer = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
  if (!response.ok || !answer.access_token) throw new Error(`The issuer gave no token: ${answer.error_description ?? answer.error ?? response.status}.`);
  setToken(answer.access_token);
  // Only a path of this page: never another origin (`//host`), whatever the storage held.
  return pending.back.startsWith('/') && !pending.back.startsWith('//') ? pending.back : '/';
}
