import type http from "node:http";
import { databaseErrorClass, isDatabaseReachable, isDatabaseUnavailable, type Database } from "@app/db";
import {
  createChangeSignal,
  LEDGER_API_VERSION,
  LIMITS,
  LEDGER_BODY_FIELD_AGAINST_PATH,
  ledgerOpenApiDocument,
  ledgerRouter,
  refuseUnlessAllowed,
  type ChangeSignalControl,
} from "@app/ledger";
import {
  badTargetAnswer,
  ClientAbortedError,
  createResponseControl,
  createRestHandler,
  errorAnswer,
  failureAnswer,
  healthAnswer,
  jsonAnswer,
  methodNotAllowedAnswer,
  parseRequestTarget,
  preconditionHeadersOf,
  READ_METHODS,
  readBody,
  restRequestOf,
  sendAnswer,
  type Answer,
  type ApiErrorBody,
} from "@app/rest";
import {
  createFailureReporter,
  createServiceServer,
  type Logger,
  type RequestRecord,
  type ServiceMetrics,
  type ServiceServer,
} from "@app/service";
import { normalizeSigV4Path, SigV4Error, verifySigV4Request, type CredentialStore } from "@app/sigv4";
import { LEDGER_SECURITY_HEADERS } from "./security-headers.ts";

/** Answered without a signature. */
const OPEN_PATHS = new Set(["/healthz", "/livez", "/openapi.json"]);
/**
 * Headers that must be signed when sent. Unsigned, a copy of a request could
 * carry another Idempotency-Key (or none) and create a second account, or
 * drop the If-Match that stops it writing over a later change (a bound set
 * back by a PATCH sent again).
 */
const SIGNED_WHEN_SENT = ["idempotency-key", "if-match", "if-none-match", "if-unmodified-since"];
/** On every answer, whoever gave it. */
const LEDGER_HEADERS = { ...LEDGER_SECURITY_HEADERS, "api-version": LEDGER_API_VERSION };

export interface LedgerServerDeps {
  db: Database;
  credentials: CredentialStore;
  region: string;
  logger: Logger;
  metrics?: ServiceMetrics;
  /**
   * What waiting GET /events wake on, and how a write is announced: by
   * default, to this server's own waits only; main.ts joins them to every
   * instance through LISTEN/NOTIFY.
   */
  changes?: ChangeSignalControl;
  announceChange?: () => void;
}

/**
 * The ledger's HTTP server (packages/service: limits, request ids, logs,
 * metrics, drained shutdown): /healthz, /livez and /openapi.json are open;
 * every other request must carry a valid AWS Signature V4, checked here in
 * front of the ledger router (served as REST by packages/rest). The few lines
 * it logs while answering name the request by a `request_id` field, not
 * through a request context: on Node 20 that context (AsyncLocalStorage)
 * hooks every promise, 8-13 % of a post's CPU (docs/benchmarks.md,
 * "Posting").
 */
export function createLedgerServer({
  db,
  credentials,
  region,
  logger,
  metrics,
  changes = createChangeSignal(),
  announceChange = changes.changed,
}: LedgerServerDeps): ServiceServer {
  const failures = createFailureReporter(logger, metrics, databaseErrorClass);
  const rest = createRestHandler({
    router: ledgerRouter,
    document: ledgerOpenApiDocument,
    maxBodyBytes: LIMITS.bodyBytes,
    bodyFieldAgainstPath: LEDGER_BODY_FIELD_AGAINST_PATH,
    onError: failures.onProcedureError,
  });

  async function answer(req: http.IncomingMessage, record: RequestRecord): Promise<Answer> {
    const badTarget = badTargetAnswer(req.url ?? "/");
    if (badTarget) return badTarget;
    const sent = parseRequestTarget(req.url ?? "/");
    // Routed by the path as SigV4 signers normalise it: `//accounts` is /accounts, `/accounts//balance` no account.
    const target = { ...sent, path: normalizeSigV4Path(sent.path) };
    const pathname = target.path;
    const method = req.method ?? "GET";
    record.route = rest.routeOf(pathname) ?? (OPEN_PATHS.has(pathname) ? pathname : "unmatched");
    const health = await healthAnswer(pathname, method, {
      isDraining: () => service.isDraining(),
      isDatabaseReachable: () => isDatabaseReachable(db),
    });
    if (health) return health;
    if (pathname === "/openapi.json") {
      return READ_METHODS.includes(method)
        ? jsonAnswer(200, ledgerOpenApiDocument)
        : methodNotAllowedAnswer(method, pathname, READ_METHODS);
    }

    // Read before the signature check, which covers it: the route's own limit (batches) or the service's.
    const maxBodyBytes = rest.maxBodyBytesOf(method, pathname);
    const body = await readBody(req, maxBodyBytes);
    if (!body) return errorAnswer(413, `the body is larger than ${maxBodyBytes} bytes`);
    try {
      const caller = verifySigV4Request(
        { method, target: sent.raw, headers: req.headersDistinct, body },
        { credentials, region, service: "execute-api", signedWhenSent: SIGNED_WHEN_SENT },
      );
      record.user = caller.principal;
      const request = restRequestOf(req, target, body);
      return await rest.handle(request, {
        requestId: record.id,
        authorize: (procedure) => refuseUnlessAllowed(caller, procedure.meta),
        context: async () => ({
          db,
          caller,
          // Repeated lines arrive joined by ", ", which no key may hold: a 400.
          idempotencyKey: req.headers["idempotency-key"] ?? null,
          preconditions: preconditionHeadersOf(request.headers),
          response: createResponseControl(),
          warn: (message: string) => logger.warn({ request_id: record.id }, message),
          changes,
          announceChange,
        }),
      });
    } catch (error) {
      if (error instanceof SigV4Error) return sigV4ErrorAnswer(error);
      failures.report(record.route, error, record.id);
      return failureAnswer(error, isDatabaseUnavailable);
    }
  }

  const service: ServiceServer = createServiceServer({
    logger,
    ...(metrics ? { metrics } : {}),
    refusedRequest: (status, message) => errorAnswer(status, message, LEDGER_HEADERS),
    answersCarryRequestId: true,
    async handle(req, res, record) {
      const headers = { "x-request-id": record.id, ...LEDGER_HEADERS };
      try {
        sendAnswer(res, await answer(req, record), headers);
      } catch (error) {
        // A client gone before its body ended has nobody to answer (its log line says 499).
        if (error instanceof ClientAbortedError) return void res.destroy();
        failures.report(record.route, error, record.id);
        if (!res.headersSent) sendAnswer(res, failureAnswer(error, isDatabaseUnavailable), headers);
        else res.destroy();
      }
    },
  });
  return {
    ...service,
    // A shutdown ends the GET /events waits under way at once, with their answer as it is, and those
    // begun while it drains when the listener closes.
    async drain(drainMs) {
      changes.endWaits();
      const closing = setTimeout(() => changes.stop(), drainMs);
      try {
        await service.drain(drainMs);
      } finally {
        clearTimeout(closing);
        changes.stop();
      }
    },
  };
}

/** AWS's error name in the body's `error` and in `x-amzn-ErrorType`, as API Gateway answers. */
function sigV4ErrorAnswer(error: SigV4Error): Answer {
  const body: ApiErrorBody = { statusCode: error.status, error: error.errorName, message: error.message };
  return jsonAnswer(error.status, body, { "x-amzn-ErrorType": error.errorName });
}
