import { AuthenticationError, IdentityProviderUnavailable, type TokenVerifier } from "@app/auth";
import { batchCalls, withTimeout, type Database } from "@app/db";
import { serviceUnavailable } from "@app/rest";
import {
  ACCESS_TOKEN_PREFIX,
  findAccessTokens,
  type AccessTokenGrant,
  type ResumeIdentity,
} from "@app/resume";
import { sessionToken } from "../server/session.ts";

export type Identity = ResumeIdentity | AuthenticationError;

/** Who a request's bearer token names, or why it names no one. */
export type Identify = (
  headers: { get(name: string): string | null },
  options?: { acceptSessionCookie?: boolean },
) => Promise<Identity>;

/** What a personal access token grants (a database lookup). */
export type FindAccessToken = (token: string) => Promise<AccessTokenGrant>;

/**
 * How long a request waits for its personal access token's row before the
 * database counts as unavailable: a new connection's 2 s, and a second to answer.
 */
const ACCESS_TOKEN_TIMEOUT_MS = 3_000;

/**
 * Personal access tokens looked up in the database, never kept in memory (a
 * revoked one is refused at once); the lookups of concurrent requests share
 * one statement. It carries only the tokens' SHA-256 in hex, which no token,
 * however odd, can make the database refuse: one request's token cannot fail
 * another's lookup.
 */
export function accessTokenFinder(db: Database): FindAccessToken {
  return batchCalls((tokens: string[]) => withTimeout(findAccessTokens(db, tokens), ACCESS_TOKEN_TIMEOUT_MS));
}

const PROVIDER_UNAVAILABLE =
  "the sign-in provider could not be reached to check the token; try again shortly";

const PERSONAL_TOKEN = new RegExp(`^Bearer +(${ACCESS_TOKEN_PREFIX}[^ ]+) *$`, "i");

/**
 * One verifier for REST and the editor: a personal access token (`rsm_...`)
 * or the sign-in provider's JWT. Only the editor's calls (its tRPC transport,
 * its downloads from GET /me/resume) may carry its token in the session cookie
 * instead of the Authorization header. A token that cannot be checked, the
 * provider's keys unreadable, is a 503 (a DomainError), not an identity.
 */
export function createIdentify(verify: TokenVerifier, findAccessToken: FindAccessToken): Identify {
  return async (headers, { acceptSessionCookie = false } = {}) => {
    let authorization = headers.get("authorization");
    if (authorization === null && acceptSessionCookie) {
      const cookieToken = sessionToken(headers.get("cookie"));
      if (cookieToken) authorization = `Bearer ${cookieToken}`;
    }
    const personalToken = PERSONAL_TOKEN.exec(authorization ?? "")?.[1];
    if (personalToken) return identityOf(await findAccessToken(personalToken));
    try {
      return await verify(authorization);
    } catch (error) {
      if (error instanceof AuthenticationError) return error;
      // A token that could not be checked is no bad token: the caller is told to try again, not to sign in.
      if (error instanceof IdentityProviderUnavailable) throw serviceUnavailable(PROVIDER_UNAVAILABLE, error);
      throw error;
    }
  };
}

function identityOf(grant: AccessTokenGrant): Identity {
  if ("userId" in grant) return grant;
  return new AuthenticationError(
    "invalid_token",
    grant.refused === "expired"
      ? "the personal access token has expired"
      : "the personal access token is not known (mistyped or revoked)",
  );
}
