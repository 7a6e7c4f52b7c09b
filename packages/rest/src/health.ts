import { serviceUnavailable } from "./domain-error.ts";
import {
  errorAnswerOf,
  jsonAnswer,
  methodNotAllowedAnswer,
  READ_METHODS,
  type RestResponse,
} from "./answer.ts";

/**
 * `/healthz` (readiness: 200 while the database answers, else 503) and
 * `/livez` (liveness: 200 while the process runs, no database), GET or HEAD,
 * for both services; null for any other path.
 */
export async function healthAnswer(
  pathname: string,
  method: string,
  isReady: () => Promise<boolean>,
): Promise<RestResponse | null> {
  if (pathname !== "/healthz" && pathname !== "/livez") return null;
  if (!READ_METHODS.includes(method)) return methodNotAllowedAnswer(method, pathname, READ_METHODS);
  if (pathname === "/livez") return jsonAnswer(200, { status: "ok" });
  return (await isReady())
    ? jsonAnswer(200, { status: "ok", database: "ok" })
    : errorAnswerOf(serviceUnavailable("the database is unreachable"));
}
