import { errorAnswer, type RestResponse } from "./answer.ts";

/** A request target, read once by the server that received it and handed on. */
export interface RequestTarget {
  /** Up to the first "?", percent-encoded as sent. */
  path: string;
  /** All after the first "?" (a later "?" belongs to a value). */
  query: URLSearchParams;
  /** The target as sent. */
  raw: string;
}

export function parseRequestTarget(raw: string): RequestTarget {
  const question = raw.indexOf("?");
  return question < 0
    ? { path: raw, query: new URLSearchParams(), raw }
    : { path: raw.slice(0, question), query: new URLSearchParams(raw.slice(question + 1)), raw };
}

/**
 * The 400 of a request target that is not a path, null for a path. Clients
 * send the absolute form (`GET http://evil.example/x`) to proxies only, and `*`
 * means the server itself; neither service is a proxy, so neither acts on the
 * host such a target names (Next.js answered with a redirect to it).
 */
export function badTargetAnswer(target: string): RestResponse | null {
  return target.startsWith("/")
    ? null
    : errorAnswer(400, "the request target must be a path starting with /, not a URL or *");
}
