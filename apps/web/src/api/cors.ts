import type { IncomingMessage } from "node:http";
import { PRECONDITION_HEADERS, type Answer } from "@app/rest";

/** What a browser script on another origin may send and read (docs/resume-api.md, "Cross-origin access (CORS)"). */
const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";
const ALLOWED_HEADERS = [
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  ...PRECONDITION_HEADERS,
  "X-Request-Id",
].join(", ");
const EXPOSED_HEADERS =
  "Location, ETag, Retry-After, API-Version, X-Request-Id, Idempotent-Replayed, WWW-Authenticate, Content-Disposition, X-Unrendered-Characters";
const PREFLIGHT_MAX_AGE_SECONDS = "600";

export interface Cors {
  /** The answer to a CORS preflight from an allowed origin; null for anything else. */
  preflight(req: IncomingMessage): Answer | null;
  /** The CORS headers of the answer to an actual request. */
  headersFor(req: IncomingMessage): Record<string, string>;
}

/**
 * CORS for `/me/*`, per the Fetch standard: a page on one of `allowedOrigins`
 * (or any, for "*") may call the API with a bearer token. The token travels
 * in Authorization, never a cookie, so no credentials mode is needed. With
 * no origins, no answer carries CORS headers and a preflight gets the 405 of
 * any OPTIONS: browsers keep scripts of other origins out, as before.
 */
export function createCors(allowedOrigins: readonly string[]): Cors {
  const anyOrigin = allowedOrigins.includes("*");
  const allowed = (origin: string | undefined): origin is string =>
    origin !== undefined && (anyOrigin || allowedOrigins.includes(origin));

  return {
    preflight(req) {
      const origin = req.headers.origin;
      if (req.method !== "OPTIONS" || !req.headers["access-control-request-method"] || !allowed(origin))
        return null;
      return {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": ALLOWED_METHODS,
          "access-control-allow-headers": ALLOWED_HEADERS,
          "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
          vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
        },
        body: "",
      };
    },
    headersFor(req): Record<string, string> {
      if (allowedOrigins.length === 0) return {};
      const origin = req.headers.origin;
      if (!allowed(origin)) return { vary: "Origin" };
      return {
        "access-control-allow-origin": origin,
        "access-control-expose-headers": EXPOSED_HEADERS,
        vary: "Origin",
      };
    },
  };
}
