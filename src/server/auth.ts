import { verify } from 'hono/jwt';
import { GateflowError } from '../error/gateflow-error.js';
import { isWellFormed } from '../workflow/untrusted-string.js';
import { HttpError } from './errors.js';

/** HS256 secrets shorter than this are refused at start: they can be guessed offline from one token. */
export const MIN_JWT_SECRET_BYTES = 32;
/** How far the server's clock may disagree with the issuer's, unless configured. */
export const DEFAULT_JWT_CLOCK_SKEW_SECONDS = 30;
const MAX_SUBJECT_LENGTH = 256;
/** A token's `roles`: at most this many, each at most this long. */
const MAX_ROLES = 50;
const MAX_ROLE_LENGTH = 64;

/** Who a verified token names: its subject (a session's owner) and the roles it holds (who answers gates addressed to a role). */
export interface TokenIdentity {
  subject: string;
  roles: string[];
}

export interface JwtAuthOptions {
  /** The HS256 secret, at least {@link MIN_JWT_SECRET_BYTES} bytes. */
  secret: string;
  /** When set, the token's `iss` must equal it. */
  issuer?: string | undefined;
  /** When set, the token's `aud` must name it. */
  audience?: string | undefined;
  /** Leeway for `exp`, `nbf` and `iat` (default {@link DEFAULT_JWT_CLOCK_SKEW_SECONDS}). */
  clockSkewSeconds?: number | undefined;
}

/** A setting the server refuses to start with. */
export class ServerConfigError extends GateflowError {
  override readonly name = 'ServerConfigError';
  readonly code = 'invalid_config';
  readonly status = 500;
}

/** Checks the options once, at start; returns the function that reads a request's subject and roles. */
export function createJwtAuth(options: JwtAuthOptions): (authorization: string | undefined) => Promise<TokenIdentity> {
  const bytes = new TextEncoder().encode(options.secret).length;
  if (bytes < MIN_JWT_SECRET_BYTES)
    throw new ServerConfigError(`the JWT secret is ${bytes} bytes; it must be at least ${MIN_JWT_SECRET_BYTES} (e.g. openssl rand -base64 48)`);
  const skew = options.clockSkewSeconds ?? DEFAULT_JWT_CLOCK_SKEW_SECONDS;
  if (!Number.isFinite(skew) || skew < 0 || skew > 3600)
    throw new ServerConfigError(`the JWT clock skew must be from 0 to 3600 seconds, not ${skew}`);

  return async (authorization) => {
    const match = /^Bearer +([A-Za-z0-9_.=-]+)$/i.exec(authorization ?? '');
    if (!match) throw unauthorized('send Authorization: Bearer <JWT>');
    let payload: Record<string, unknown>;
    try {
      // Hono checks the signature, algorithm, issuer and audience; the times are checked below, with leeway.
      payload = await verify(match[1]!, options.secret, {
        alg: 'HS256',
        ...(options.issuer && { iss: options.issuer }),
        ...(options.audience && { aud: options.audience }),
        exp: false,
        nbf: false,
        iat: false,
      });
    } catch (error) {
      throw unauthorized(reasonOf(error));
    }
    checkTimes(payload, Math.floor(Date.now() / 1000), skew);
    const sub = payload.sub;
    // The subject is stored as a session's owner: it must be text a database keeps exactly.
    if (typeof sub !== 'string' || sub === '' || sub.length > MAX_SUBJECT_LENGTH || !isWellFormed(sub) || /[\u0000-\u001f\u007f]/.test(sub))
      throw unauthorized(`the token's subject (sub) must be a non-empty string of at most ${MAX_SUBJECT_LENGTH} printable characters`);
    return { subject: sub, roles: rolesOf(payload.roles) };
  };
}

/**
 * The token's `roles` claim: absent is none; otherwise a list of short
 * printable strings (compared exactly with the role a gate names, such as
 * "manager"). Anything else is refused rather than read as no roles, so a
 * misconfigured issuer is noticed at the first request.
 */
function rolesOf(claim: unknown): string[] {
  if (claim === undefined) return [];
  const bad = `the token's roles must be a list of at most ${MAX_ROLES} role names (strings of 1 to ${MAX_ROLE_LENGTH} printable characters), e.g. ["manager"]`;
  if (!Array.isArray(claim) || claim.length > MAX_ROLES) throw unauthorized(bad);
  for (const role of claim)
    if (typeof role !== 'string' || role === '' || role.length > MAX_ROLE_LENGTH || !isWellFormed(role) || /[\u0000-\u001f\u007f]/.test(role)) throw unauthorized(bad);
  return [...new Set(claim as string[])];
}

function checkTimes(payload: Record<string, unknown>, now: number, skew: number): void {
  const claim = (name: 'exp' | 'nbf' | 'iat') => {
    const value = payload[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw unauthorized(`the token's ${name} is not a number`);
    return value;
  };
  const exp = claim('exp');
  if (exp !== undefined && now - skew >= exp) throw unauthorized('the token has expired');
  const nbf = claim('nbf');
  if (nbf !== undefined && now + skew < nbf) throw unauthorized('the token is not valid yet (nbf)');
  const iat = claim('iat');
  if (iat !== undefined && now + skew < iat) throw unauthorized('the token was issued in the future (iat)');
}

/** What was wrong with a token, in words that never repeat the token (Hono's messages do). */
function reasonOf(error: unknown): string {
  switch ((error as Error | null)?.name) {
    case 'JwtTokenSignatureMismatched':
      return 'the token signature does not match';
    case 'JwtAlgorithmMismatch':
    case 'JwtHeaderInvalid':
      return 'the token must be an HS256 JWT';
    case 'JwtTokenIssuer':
      return 'the token issuer is not accepted';
    case 'JwtTokenAudience':
    case 'JwtPayloadRequiresAud':
      return 'the token audience is not accepted';
    default:
      return 'the token is malformed';
  }
}

const unauthorized = (reason: string) => new HttpError(401, 'unauthorized', `invalid or missing token: ${reason}`);
