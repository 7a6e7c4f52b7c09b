import { serviceUnavailable } from "./domain-error.ts";
import {
  errorAnswerOf,
  jsonAnswer,
  methodNotAllowedAnswer,
  READ_METHODS,
  type RestResponse,
} from "./answer.ts";

/**
 * `/healthz` (readiness: 200 while the database answers and the server is not
 * shutting down, else 503 saying which) and `/livez` (liveness: 200 while the
 * process runs, no database), GET or HEAD, for both services; null for any
 * other path.
 */
export async function healthAnswer(
  pathname: string,
  method: string,
  readiness: { isDraining(): boolean; isDatabaseReachable(): Promise<boolean> },
): Promise<RestResponse | null> {
  if (pathname !== "/healthz" && pathname !== "/livez") return null;
  if (!READ_METHODS.includes(method)) return methodNotAllowedAnswer(method, pathname, READ_METHODS);
  if (pathname === "/livez") return jsonAnswer(200, { status: "ok" });
  if (readiness.isDraining()) return errorAnswerOf(serviceUnavailable("the server is shutting down"));
  return (await readiness.isDatabaseReachable())
    ? jsonAnswer(200, { status: "ok", database: "ok" })
    : errorAnswerOf(serviceUnavailable("the database is unreachable"));
}
