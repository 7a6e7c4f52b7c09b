import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  importSPKI,
  jwtVerify,
  type JWK,
  type JWTVerifyGetKey,
} from "jose";
import { createVerifiedTokenCache } from "./verified-token-cache.ts";

export type KeySource = { jwksUrl: string } | { publicKeyPem: string } | { jwks: { keys: JWK[] } };

export interface TokenVerifierConfig {
  issuer: string;
  audience: string;
  key: KeySource;
}

const ALLOWED_ALGORITHMS = ["RS256", "ES256"];
/** Leeway for `exp` and `nbf`: clocks of two honest machines differ by a few seconds. */
const CLOCK_TOLERANCE_SECONDS = 5;

export type AuthenticationFailure = "missing_token" | "invalid_token" | "expired_token";

/** Why a request is not authenticated; the message is safe to show a client. */
export class AuthenticationError extends Error {
  override name = "AuthenticationError";
  constructor(
    readonly reason: AuthenticationFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The identity provider's keys could not be read (its JWKS URL refused,
 * timed out or answered no key set): nothing is known of the token, which
 * may well be good. Not an AuthenticationError: the service is unavailable
 * (a 503), not the caller unauthenticated.
 */
export class IdentityProviderUnavailable extends Error {
  override name = "IdentityProviderUnavailable";
  constructor(cause: unknown) {
    super("the identity provider's keys could not be read", { cause });
  }
}

export interface VerifiedIdentity {
  userId: string;
}

export type TokenVerifier = (authorizationHeader: string | null | undefined) => Promise<VerifiedIdentity>;

export interface TokenVerifierOptions {
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
}

/**
 * A verifier of `Authorization: Bearer <jwt>` headers: signature (RS256 or
 * ES256 only) against a JWKS or a PEM key, `iss`, `aud` (required), `exp`
 * (required), `nbf`, `sub` (required) and no unknown `crit` header. A token
 * it has verified is accepted again for a while without a new signature check
 * (see verified-token-cache.ts).
 */
export function createTokenVerifier(
  config: TokenVerifierConfig,
  { now = Date.now }: TokenVerifierOptions = {},
): TokenVerifier {
  const getKey = keyResolver(config.key);
  const verified = createVerifiedTokenCache();

  return async (authorizationHeader) => {
    const token = bearerToken(authorizationHeader);
    const nowMs = now();
    const cachedUser = verified.get(token, nowMs);
    if (cachedUser !== undefined) return { userId: cachedUser };
    try {
      const { payload } = await jwtVerify(token, await getKey, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(nowMs),
        requiredClaims: ["sub", "aud", "exp"],
      });
      if (!isUserId(payload.sub)) {
        throw new AuthenticationError("invalid_token", "the token's subject is missing or invalid");
      }
      const expiresAtMs = payload.exp! * 1000;
      if (expiresAtMs > nowMs) verified.set(token, payload.sub, expiresAtMs, nowMs);
      return { userId: payload.sub };
    } catch (error) {
      if (error instanceof AuthenticationError || error instanceof IdentityProviderUnavailable) throw error;
      if (error instanceof errors.JWTExpired) {
        throw new AuthenticationError("expired_token", "the token has expired");
      }
      throw new AuthenticationError("invalid_token", "the token is invalid");
    }
  };
}

/**
 * A subject the service can keep as a user id: 1-255 characters of text
 * PostgreSQL stores as sent, by the rule every body's text follows (no NUL,
 * no lone surrogate). Anything else would fail the statements that serve
 * this user together with others (rate limits).
 */
function isUserId(sub: unknown): sub is string {
  return (
    typeof sub === "string" &&
    sub.length > 0 &&
    // In characters (code points), as zod counts every text's length: an emoji is one, not two.
    [...sub].length <= 255 &&
    !sub.includes("\u0000") &&
    sub.isWellFormed()
  );
}

function bearerToken(header: string | null | undefined): string {
  // Two Authorization lines arrive joined by a comma, which no Bearer token holds: which one counts would be a guess.
  if (header?.includes(",")) {
    throw new AuthenticationError("invalid_token", "send one Authorization header with one Bearer token");
  }
  const match = /^Bearer +([^ ]+) *$/i.exec(header ?? "");
  if (!match?.[1]) {
    throw new AuthenticationError("missing_token", "an Authorization: Bearer token is required");
  }
  return match[1];
}

type KeyInput = JWTVerifyGetKey | Awaited<ReturnType<typeof importSPKI>>;

function keyResolver(key: KeySource): Promise<KeyInput> {
  if ("jwksUrl" in key)
    return Promise.resolve(unavailableWhenUnread(createRemoteJWKSet(new URL(key.jwksUrl))));
  if ("jwks" in key) return Promise.resolve(createLocalJWKSet(key.jwks));
  // A PEM names no algorithm; try RS256 first and fall back to ES256.
  return importSPKI(key.publicKeyPem, "RS256").catch(() => importSPKI(key.publicKeyPem, "ES256"));
}

/**
 * A remote key set whose failures to be read are IdentityProviderUnavailable:
 * only a key set that was read and holds no key for the token (or several)
 * says anything of the token.
 */
function unavailableWhenUnread(remote: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
        throw error;
      throw new IdentityProviderUnavailable(error);
    }
  };
}
