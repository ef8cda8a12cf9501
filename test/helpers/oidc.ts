/**
 * A real OAuth 2.1 authorization server on loopback: panva's oidc-provider, with the client
 * credentials grant, resource indicators (RFC 8707) and JWT access tokens (RFC 9068), and for a
 * browser a public client that signs people in with the authorization code and PKCE. Its
 * signing keys can be rotated (`rotate()`: a new key signs, the old one is still published), and
 * the private key of the first is at hand to sign tokens the server itself would never issue.
 */
import { createPrivateKey, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

const CLIENTS = {
  agent: 'agent-secret',
  admin: 'admin-secret',
  plain: 'plain-secret',
};

function signingKey(kid: string): JsonWebKey {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  return { ...jwk, kid, alg: 'RS256', use: 'sig' };
}

export interface TestIssuer {
  issuer: string;
  /** A client-credentials access token of `client` for `resource`, with `scope`. */
  token(client: keyof typeof CLIENTS, resource: string, scope: string): Promise<string>;
  /** A JWT signed with the first key the issuer published, with these claims (whatever they say). */
  forge(claims: Record<string, unknown>, header?: Record<string, unknown>): string;
  /** From now on a new key signs; both are published. */
  rotate(): void;
  /** How many times the key set was fetched. */
  readonly keyFetches: number;
  close(): Promise<void>;
}

/** A browser's public client (the web page's): authorization code with PKCE, people signing in at the issuer's own (dev) pages. */
export interface WebClient {
  id: string;
  redirectUri: string;
  /** The groups claim of each person's tokens, by the login they sign in with. */
  groupsOf: Record<string, string[]>;
}

function provider(issuer: string, keys: JsonWebKey[], groups: Record<string, string[]>, web?: WebClient): Provider {
  return new Provider(issuer, {
    jwks: { keys },
    clients: [
      ...Object.entries(CLIENTS).map(([client_id, client_secret]) => ({
        client_id,
        client_secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: 'sextant:search sextant:admin other:scope',
      })),
      ...(web
        ? [
            {
              client_id: web.id,
              token_endpoint_auth_method: 'none',
              grant_types: ['authorization_code'],
              response_types: ['code'],
              redirect_uris: [web.redirectUri],
              scope: 'sextant:search',
            },
          ]
        : []),
    ],
    scopes: ['sextant:search', 'sextant:admin', 'other:scope'],
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: web !== undefined },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: 'sextant:search sextant:admin other:scope',
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 300,
          jwt: { sign: { alg: 'RS256', kid: keys[0]!.kid } },
        }),
      },
    },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 300, ClientCredentials: 300, AuthorizationCode: 60 },
    // A browser may trade a code only from the origin the client's redirect URI names.
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris?: string[] }) =>
      (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin),
    extraTokenClaims: (_ctx: unknown, token: { clientId?: string; accountId?: string }) => ({
      groups: (token.accountId !== undefined ? web?.groupsOf[token.accountId] : groups[token.clientId ?? '']) ?? [],
    }),
  });
}

/** `groups`: the groups claim each client's tokens carry. */
export async function startIssuer(groups: Record<string, string[]> = {}, web?: WebClient): Promise<TestIssuer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const first = signingKey('key-1');
  let current = provider(issuer, [first], groups, web);
  let keyFetches = 0;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/jwks') keyFetches++;
    current.callback()(req, res);
  });
  const privateFirst = createPrivateKey({ key: first as never, format: 'jwk' });
  return {
    issuer,
    async token(client, resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client}:${CLIENTS[client]}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, ...(scope ? { scope } : {}) }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    forge(claims, header = { alg: 'RS256', typ: 'at+jwt', kid: 'key-1' }) {
      const encode = (part: Record<string, unknown>): string => Buffer.from(JSON.stringify(part)).toString('base64url');
      const signed = `${encode(header)}.${encode(claims)}`;
      return `${signed}.${sign('sha256', Buffer.from(signed), privateFirst).toString('base64url')}`;
    },
    rotate() {
      current = provider(issuer, [signingKey('key-2'), first], groups, web);
    },
    get keyFetches() {
      return keyFetches;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
