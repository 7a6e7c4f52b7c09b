import http from "node:http";
import { isDatabaseReachable, type Database } from "@app/db";
import {
  LEDGER_API_VERSION,
  LIMITS,
  ledgerOpenApiDocument,
  ledgerRouter,
  type LedgerContext,
} from "@app/ledger";
import {
  apiErrorBody,
  createRestHandler,
  healthAnswer,
  jsonAnswer,
  readBody,
  restRequestOf,
  sendAnswer,
  type ApiErrorBody,
  type RestRequest,
} from "@app/rest";
import { SigV4Error, verifySigV4Request, type Credential, type CredentialStore } from "@app/sigv4";

export interface LedgerServerDeps {
  db: Database;
  credentials: CredentialStore;
  region: string;
  warn?: (message: string) => void;
}

/**
 * The ledger's HTTP server: /healthz and /openapi.json are open; every other
 * request must carry a valid AWS Signature V4, checked here in front of the
 * ledger router (served as REST by packages/rest).
 */
export function createLedgerServer({ db, credentials, region, warn = console.warn }: LedgerServerDeps) {
  // The verified signer of each request, for the tRPC context.
  const signers = new WeakMap<RestRequest, Credential>();
  const rest = createRestHandler<LedgerContext>({
    router: ledgerRouter,
    document: ledgerOpenApiDocument,
    maxBodyBytes: LIMITS.bodyBytes,
    apiVersion: LEDGER_API_VERSION,
    createContext: async (request, response) => ({ db, caller: signers.get(request)!, response, warn }),
    onError: (error, path) => {
      const { code, cause } = error as { code?: string; cause?: unknown };
      if (code === "INTERNAL_SERVER_ERROR" || code === "SERVICE_UNAVAILABLE")
        console.error(`[ledger] ${path}:`, cause ?? error);
    },
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const target = req.url ?? "/";
    const pathname = target.split("?")[0];
    if (pathname === "/healthz" && req.method === "GET")
      return sendAnswer(res, await healthAnswer(() => isDatabaseReachable(db)), {
        "api-version": LEDGER_API_VERSION,
      });
    if (pathname === "/openapi.json" && req.method === "GET")
      return sendJson(res, 200, ledgerOpenApiDocument);

    const body = await readBody(req, LIMITS.bodyBytes);
    if (!body)
      return sendJson(res, 413, apiErrorBody(413, `the body is larger than ${LIMITS.bodyBytes} bytes`));

    let caller: Credential;
    try {
      caller = verifySigV4Request(
        { method: req.method ?? "GET", target, headers: req.headers, body },
        { credentials, region, service: "execute-api" },
      );
    } catch (error) {
      if (!(error instanceof SigV4Error)) throw error;
      const errorBody: ApiErrorBody = {
        statusCode: error.status,
        error: error.errorName,
        message: error.message,
      };
      return sendJson(res, error.status, errorBody, { "x-amzn-ErrorType": error.errorName });
    }

    const request = restRequestOf(req, body.toString("utf8"));
    signers.set(request, caller);
    sendAnswer(res, await rest.handle(request));
  }

  return http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("[ledger]", error);
      if (!res.headersSent) sendJson(res, 500, apiErrorBody(500, "internal error"));
      else res.destroy();
    });
  });
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  sendAnswer(res, jsonAnswer(status, body, { "api-version": LEDGER_API_VERSION, ...headers }));
}
