import http from "node:http";
import { isDatabaseUnavailable, isDatabaseReachable, type Database } from "@app/db";
import { LEDGER_API_VERSION, LIMITS, ledgerOpenApiDocument, ledgerRouter } from "@app/ledger";
import {
  createResponseControl,
  createRestHandler,
  errorAnswer,
  failureAnswer,
  healthAnswer,
  jsonAnswer,
  readBody,
  restRequestOf,
  sendAnswer,
  type Answer,
  type ApiErrorBody,
} from "@app/rest";
import { SigV4Error, verifySigV4Request, type CredentialStore } from "@app/sigv4";

export interface LedgerServerDeps {
  db: Database;
  credentials: CredentialStore;
  region: string;
  warn?: (message: string) => void;
  /** Where failures of the service itself go (a 500, a database outage). */
  logError?: (where: string, error: unknown) => void;
}

/**
 * The ledger's HTTP server: /healthz, /livez and /openapi.json are open; every other
 * request must carry a valid AWS Signature V4, checked here in front of the
 * ledger router (served as REST by packages/rest).
 */
export function createLedgerServer({
  db,
  credentials,
  region,
  warn = console.warn,
  logError = (where, error) => console.error(`[ledger] ${where}:`, error),
}: LedgerServerDeps): http.Server {
  const rest = createRestHandler({
    router: ledgerRouter,
    document: ledgerOpenApiDocument,
    maxBodyBytes: LIMITS.bodyBytes,
    onError: (error, path) => {
      const { code, cause } = error as { code?: string; cause?: unknown };
      if (code === "INTERNAL_SERVER_ERROR" || code === "SERVICE_UNAVAILABLE")
        logError(path ?? "?", cause ?? error);
    },
  });

  async function answer(req: http.IncomingMessage): Promise<Answer> {
    const target = req.url ?? "/";
    const pathname = target.split("?")[0]!;
    const method = req.method ?? "GET";
    const health = await healthAnswer(pathname, method, () => isDatabaseReachable(db));
    if (health) return health;
    if (pathname === "/openapi.json" && (method === "GET" || method === "HEAD"))
      return jsonAnswer(200, ledgerOpenApiDocument);

    const body = await readBody(req, LIMITS.bodyBytes);
    if (!body) return errorAnswer(413, `the body is larger than ${LIMITS.bodyBytes} bytes`);
    try {
      const caller = verifySigV4Request(
        { method: req.method ?? "GET", target, headers: req.headers, body },
        { credentials, region, service: "execute-api" },
      );
      return await rest.handle(restRequestOf(req, body.toString("utf8")), {
        context: async () => ({ db, caller, response: createResponseControl(), warn }),
      });
    } catch (error) {
      if (error instanceof SigV4Error) return sigV4ErrorAnswer(error);
      logError(target, error);
      return failureAnswer(error, isDatabaseUnavailable);
    }
  }

  return http.createServer((req, res) => {
    answer(req).then(
      (reply) => sendAnswer(res, reply, { "api-version": LEDGER_API_VERSION }),
      (error: unknown) => {
        logError(req.url ?? "?", error);
        if (!res.headersSent) sendAnswer(res, failureAnswer(error, isDatabaseUnavailable));
        else res.destroy();
      },
    );
  });
}

/** AWS's error name in the body's `error` and in `x-amzn-ErrorType`, as API Gateway answers. */
function sigV4ErrorAnswer(error: SigV4Error): Answer {
  const body: ApiErrorBody = { statusCode: error.status, error: error.errorName, message: error.message };
  return jsonAnswer(error.status, body, { "x-amzn-ErrorType": error.errorName });
}
