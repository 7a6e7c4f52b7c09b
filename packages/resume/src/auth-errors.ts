import type { AuthenticationError } from "@app/auth";
import { DomainError } from "@app/rest/errors";
import type { TokenScope } from "./schemas/access-token.ts";

/**
 * The resume service's refusals of a caller, each with RFC 6750's
 * `WWW-Authenticate` challenge: the one place that header is written.
 */

/** 401: no token, or one that is invalid or expired (then the challenge says so). */
export function unauthenticated(failure: AuthenticationError): DomainError {
  const error =
    failure.reason === "missing_token"
      ? ""
      : `, error="invalid_token", error_description="${failure.message}"`;
  return new DomainError(401, failure.message, {
    headers: { "www-authenticate": `Bearer realm="resume"${error}` },
  });
}

/** 403 INSUFFICIENT_SCOPE: a token that may not do this, with the scope it would need if one would do. */
export function insufficientScope(message: string, scope?: TokenScope): DomainError {
  const needed = scope ? `, scope="${scope}"` : "";
  return new DomainError(403, message, {
    error: "INSUFFICIENT_SCOPE",
    headers: { "www-authenticate": `Bearer realm="resume", error="insufficient_scope"${needed}` },
  });
}
