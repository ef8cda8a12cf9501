/**
 * A JWT access token (RFC 9068) checked locally, with no call to the issuer: the signature with
 * an asymmetric algorithm only (never `none`, never an HMAC, whose key would be the issuer's
 * public key), the algorithm bound to the key's type, then `iss`, `aud` (this server's canonical
 * resource URI, RFC 8707), `exp` and `nbf` with a small leeway.
 */
import { constants, verify, type KeyObject } from 'node:crypto';

/** Clock difference tolerated between this server and the issuer. */
const LEEWAY_SECONDS = 60;

/** Algorithm → the key type it needs, the digest, and how its signature is laid out. */
const ALGORITHMS: Record<string, { keyType: string; digest: string | null; pss?: true; curve?: string }> = {
  RS256: { keyType: 'rsa', digest: 'sha256' },
  RS384: { keyType: 'rsa', digest: 'sha384' },
  RS512: { keyType: 'rsa', digest: 'sha512' },
  PS256: { keyType: 'rsa', digest: 'sha256', pss: true },
  PS384: { keyType: 'rsa', digest: 'sha384', pss: true },
  PS512: { keyType: 'rsa', digest: 'sha512', pss: true },
  ES256: { keyType: 'ec', digest: 'sha256', curve: 'prime256v1' },
  ES384: { keyType: 'ec', digest: 'sha384', curve: 'secp384r1' },
  ES512: { keyType: 'ec', digest: 'sha512', curve: 'secp521r1' },
  EdDSA: { keyType: 'ed25519', digest: null },
};

export class InvalidTokenError extends Error {
  readonly code = 'invalid_token';
  constructor(why: string) {
    super(`Invalid access token: ${why}`);
    this.name = 'InvalidTokenError';
  }
}

export interface TokenChecks {
  issuer: string;
  audience: string;
  key(kid: string | undefined): Promise<KeyObject | undefined>;
  nowSeconds: number;
}

function part(text: string, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // below
  }
  throw new InvalidTokenError(`its ${what} is not a JSON object`);
}

/** The token's claims, once every check passed; else InvalidTokenError, saying which failed. */
export async function checkAccessToken(token: string, checks: TokenChecks): Promise<Record<string, unknown>> {
  const pieces = token.split('.');
  if (pieces.length !== 3 || pieces.some((piece) => !/^[A-Za-z0-9_-]*$/.test(piece))) throw new InvalidTokenError('not a signed JWT');
  const [headerText, payloadText, signatureText] = pieces as [string, string, string];
  const header = part(headerText, 'header');
  const algorithm = typeof header.alg === 'string' ? ALGORITHMS[header.alg] : undefined;
  if (!algorithm) throw new InvalidTokenError(`the algorithm ${JSON.stringify(header.alg)} is not accepted (asymmetric signatures only)`);
  if (header.crit !== undefined) throw new InvalidTokenError('it has critical header parameters');
  const key = await checks.key(typeof header.kid === 'string' ? header.kid : undefined);
  if (!key) throw new InvalidTokenError('no key of the issuer signed it');
  const keyGoes = key.asymmetricKeyType === algorithm.keyType && (!algorithm.curve || key.asymmetricKeyDetails?.namedCurve === algorithm.curve);
  if (!keyGoes) throw new InvalidTokenError(`its key does not go with ${header.alg as string}`);
  const signed = Buffer.from(`${headerText}.${payloadText}`);
  const signature = Buffer.from(signatureText, 'base64url');
  const valid = verify(
    algorithm.digest,
    signed,
    {
      key,
      ...(algorithm.pss ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : {}),
      // JWS carries an ECDSA signature as r and s side by side, not DER.
      ...(algorithm.curve ? { dsaEncoding: 'ieee-p1363' as const } : {}),
    },
    signature,
  );
  if (!valid) throw new InvalidTokenError('its signature does not verify');
  const claims = part(payloadText, 'payload');
  if (claims.iss !== checks.issuer) throw new InvalidTokenError('it was issued by another issuer');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(checks.audience)) throw new InvalidTokenError('it was issued for another resource (aud)');
  if (typeof claims.exp !== 'number') throw new InvalidTokenError('it has no expiry');
  if (claims.exp + LEEWAY_SECONDS <= checks.nowSeconds) throw new InvalidTokenError('it has expired');
  if (typeof claims.nbf === 'number' && claims.nbf - LEEWAY_SECONDS > checks.nowSeconds) throw new InvalidTokenError('it is not valid yet');
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new InvalidTokenError('it names no subject');
  return claims;
}
