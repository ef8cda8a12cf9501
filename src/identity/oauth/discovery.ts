/**
 * Where an issuer keeps its keys: its Authorization Server Metadata (RFC 8414), else its OpenID
 * Connect discovery document, whose `issuer` must be exactly the one configured.
 */
import { checkIssuerUrl, fetchJson, IssuerError } from './fetch-json.js';

export interface IssuerMetadata {
  issuer: string;
  jwksUri: URL;
  /** Where a browser signs in (the web page's authorization code flow), when the issuer says. */
  authorizationEndpoint?: URL;
  tokenEndpoint?: URL;
}

/** RFC 8414 §3: the well-known segment goes between the host and the issuer's path. */
function metadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/+$/, '');
  return [new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin), new URL(`${issuer.origin}${path}/.well-known/openid-configuration`)];
}

export async function discoverIssuer(issuer: string): Promise<IssuerMetadata> {
  const url = checkIssuerUrl(issuer, 'The OAuth issuer');
  const failures: string[] = [];
  for (const candidate of metadataUrls(url)) {
    let document: Record<string, unknown>;
    try {
      document = await fetchJson(candidate);
    } catch (error) {
      failures.push((error as Error).message);
      continue;
    }
    if (document.issuer !== issuer) {
      throw new IssuerError(`${candidate.href} names the issuer ${JSON.stringify(document.issuer)}, not ${JSON.stringify(issuer)}`);
    }
    if (typeof document.jwks_uri !== 'string') throw new IssuerError(`${candidate.href} has no jwks_uri`);
    // Only the web page's sign-in uses these: one the page could not use is as good as absent, and
    // must not stop the tokens of the issuer from being checked.
    const endpoint = (field: string): URL | undefined => {
      try {
        return typeof document[field] === 'string' ? checkIssuerUrl(document[field] as string, `The issuer's ${field}`) : undefined;
      } catch {
        return undefined;
      }
    };
    const authorizationEndpoint = endpoint('authorization_endpoint');
    const tokenEndpoint = endpoint('token_endpoint');
    return {
      issuer,
      jwksUri: checkIssuerUrl(document.jwks_uri, "The issuer's jwks_uri"),
      ...(authorizationEndpoint && { authorizationEndpoint }),
      ...(tokenEndpoint && { tokenEndpoint }),
    };
  }
  throw new IssuerError(`No metadata for the OAuth issuer ${issuer}: ${failures.join('; ')}`);
}
