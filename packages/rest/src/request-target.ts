import { errorAnswer, type RestResponse } from "./answer.ts";

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
