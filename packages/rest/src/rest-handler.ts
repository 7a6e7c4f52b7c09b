import type { OpenAPIObject, OpenApiRouter } from "trpc-to-openapi";
import { apiErrorBody, type ApiErrorBody } from "./api-error.ts";
import {
  errorAnswer,
  jsonAnswer,
  methodNotAllowedAnswer,
  type RestRequest,
  type RestResponse,
} from "./answer.ts";
import { guardBodiesAgainstCoercion } from "./coercion-guard.ts";
import type { RestMeta, ServiceMeta } from "./openapi-document.ts";
import { createRouteTable } from "./route-table.ts";
import { createProcedureCall, type RestContext } from "./trpc-to-openapi-call.ts";

export interface RestHandlerOptions {
  router: OpenApiRouter;
  /** The router's OpenAPI document: its paths decide 404 and 405 before any procedure runs. */
  document: OpenAPIObject;
  maxBodyBytes: number;
  /** Every error a procedure (or its context) raised, for the server's log. */
  onError?(error: unknown, path: string | undefined): void;
}

/** What the server hands the handler with each request. */
export interface RestCall {
  /**
   * The procedure's context (who calls, the database, a fresh ResponseControl),
   * built only once the route, the method and the body are known to be right.
   */
  context(): Promise<RestContext>;
  /**
   * Reads a body that is not in `request.body` yet (the ledger reads it first to
   * check the signature); null past `limit` bytes.
   */
  readBody?(limit: number): Promise<string | null>;
}

export interface RestHandler {
  handle(request: RestRequest, call: RestCall): Promise<RestResponse>;
  /** The template of the route `pathname` matches (`/me/{collection}/{id}`), for logs and metrics. */
  routeOf(pathname: string): string | undefined;
  /** The body limit of a request to `route` (a template, as routeOf answers): the route's own (RestMeta.maxBodyBytes) or the service's. */
  maxBodyBytesOf(method: string, route: string | undefined): number;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Serves a tRPC router as REST through trpc-to-openapi, adding what the
 * services promise on every route: 404 / 405 (with Allow) from the route table,
 * 415 for a body that is not JSON, 413 past `maxBodyBytes`, the documented error
 * body for every failure, and the status codes and headers procedures choose.
 */
export function createRestHandler(options: RestHandlerOptions): RestHandler {
  const matchRoute = createRouteTable(options.document);
  guardBodiesAgainstCoercion(options.router);
  const callProcedure = createProcedureCall(options.router, (error, path) => options.onError?.(error, path));
  const restMetaOf = restMetaByRoute(options.router);

  async function handle(received: RestRequest, call: RestCall): Promise<RestResponse> {
    const { method, target, headers } = received;
    const pathname = target.split("?", 1)[0]!;
    const route = matchRoute(pathname);
    if (!route) return errorAnswer(404, `no route for ${pathname}`);
    if (!route.methods.includes(method)) return methodNotAllowedAnswer(method, route.template, route.methods);

    let request = received;
    const hasBody = BODY_METHODS.has(method);
    const meta = restMetaOf.get(`${method} ${route.template}`);
    if (hasBody) {
      if (!JSON_CONTENT_TYPE.test(headers.get("content-type") ?? "")) {
        return errorAnswer(415, "the body must be JSON (Content-Type: application/json)");
      }
      if (call.readBody) {
        const limit = meta?.maxBodyBytes ?? options.maxBodyBytes;
        const body = await call.readBody(limit);
        if (body === null) return errorAnswer(413, `the body is larger than ${limit} bytes`);
        request = { ...received, body };
      }
    }
    // HEAD is GET whose body node:http leaves out: same status and headers, Content-Length included.
    if (method === "HEAD") request = { ...request, method: "GET" };
    return finish(await callProcedure(request, hasBody, call.context, meta?.bodyInput));
  }

  return {
    handle,
    routeOf: (pathname) => matchRoute(pathname)?.template,
    maxBodyBytesOf: (method, route) =>
      restMetaOf.get(`${method} ${route}`)?.maxBodyBytes ?? options.maxBodyBytes,
  };
}

/** Each route's REST meta by `METHOD /template`. */
function restMetaByRoute(router: OpenApiRouter): Map<string, RestMeta> {
  const byRoute = new Map<string, RestMeta>();
  for (const procedure of Object.values(
    router._def.procedures as Record<string, { _def: { meta?: ServiceMeta } }>,
  )) {
    const { openapi, rest } = procedure._def.meta ?? {};
    if (openapi && rest) byRoute.set(`${openapi.method} ${openapi.path}`, rest);
  }
  return byRoute;
}

/**
 * An error answer carries exactly the API error body that the errorFormatter
 * put in tRPC's `data.body`; a JSON success says its charset.
 */
function finish(answer: RestResponse): RestResponse {
  if (answer.status < 400) {
    if (answer.headers["content-type"]?.startsWith("application/json"))
      answer.headers["content-type"] = "application/json; charset=utf-8";
    return answer;
  }
  const parsed = parseJson(answer.body) as { data?: { body?: ApiErrorBody } } | undefined;
  return jsonAnswer(
    answer.status,
    parsed?.data?.body ?? apiErrorBody(answer.status, "the request failed"),
    answer.headers,
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
