import { AuthenticationError, type TokenVerifier, type VerifiedIdentity } from "@app/auth";
import { sessionToken } from "../server/session";

export type Identity = VerifiedIdentity | AuthenticationError;

/** Who a request's bearer token names, or why it names no one. */
export type Identify = (
  headers: { get(name: string): string | null },
  options?: { acceptSessionCookie?: boolean },
) => Promise<Identity>;

/**
 * One verifier for REST and the editor; only the editor's tRPC transport may
 * carry its token in the session cookie instead of the Authorization header.
 */
export function createIdentify(verify: TokenVerifier): Identify {
  return async (headers, { acceptSessionCookie = false } = {}) => {
    const cookieToken = acceptSessionCookie ? sessionToken(headers.get("cookie")) : undefined;
    const authorization = headers.get("authorization") ?? (cookieToken ? `Bearer ${cookieToken}` : null);
    try {
      return await verify(authorization);
    } catch (error) {
      if (error instanceof AuthenticationError) return error;
      throw error;
    }
  };
}

/** RFC 6750's challenge for a 401: what was wrong with the token, when there was one. */
export function bearerChallenge(failure: AuthenticationError): string {
  const error =
    failure.reason === "missing_token"
      ? ""
      : `, error="invalid_token", error_description="${failure.message}"`;
  return `Bearer realm="resume"${error}`;
}
