import { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler, type OpenAPIObject, type OpenApiRouter } from "trpc-to-openapi";
import { apiErrorBody, type ApiErrorBody } from "./api-error.ts";
import { guardBodiesAgainstCoercion } from "./coercion-guard.ts";
import { createResponseControl, type ResponseControl } from "./response-control.ts";
import { createRouteTable } from "./route-table.ts";

/** A request as the REST handler reads it, whichever server received it. */
export interface RestRequest {
  method: string;
  /** Path and query as sent, still percent-encoded: `/me/resume?format=markdown`. */
  target: string;
  headers: { get(name: string): string | null };
  /** The raw body, "" when there is none (for signature checks and JSON parsing). */
  body: string;
}

export interface RestResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface RestHandlerOptions<TContext> {
  router: OpenApiRouter;
  /** The router's OpenAPI document: its paths decide 404 and 405 before any procedure runs. */
  document: OpenAPIObject;
  createContext(request: RestRequest, response: ResponseControl): Promise<TContext>;
  maxBodyBytes: number;
  /** Sent as the `API-Version` header of every response. */
  apiVersion?: string;
  onError?(error: unknown, path: string | undefined): void;
}

export interface RestHandler {
  /**
   * Answers `request`. A server that has read the body itself (the ledger reads
   * it to check the signature) passes it in `request.body`; one that has not
   * passes `readBody`, called only once the route, the method and the
   * Content-Type are known to be right, and answering null past `maxBodyBytes`.
   */
  handle(request: RestRequest, readBody?: (limit: number) => Promise<string | null>): Promise<RestResponse>;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;
/** No procedure reads the abort signal; every request shares this one. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * Serves a tRPC router as REST through trpc-to-openapi, adding what the
 * services promise on every route: 404 / 405 (with Allow) from the route table,
 * 415 for a body that is not JSON, 413 past `maxBodyBytes`, the documented error
 * body for every failure, and procedure-chosen status codes and headers.
 *
 * trpc-to-openapi's node handler is built once here (its fetch adapter builds
 * one per request, with a regular expression per route) and is handed the
 * request as it is, with the body parsed once: no copy of the request, no
 * second read of its body, and the answer's JSON is serialised once.
 */
export function createRestHandler<TContext>(options: RestHandlerOptions<TContext>): RestHandler {
  const matchRoute = createRouteTable(options.document);
  guardBodiesAgainstCoercion(options.router);
  const versionHeader: Record<string, string> = options.apiVersion
    ? { "api-version": options.apiVersion }
    : {};

  // What the adapter's callbacks need of each request in flight: its request
  // and response control (by the adapter's request), then its control (by its context).
  const pending = new WeakMap<object, { request: RestRequest; control: ResponseControl }>();
  const controls = new WeakMap<object, ResponseControl>();
  const openApiHandler = createOpenApiNodeHttpHandler({
    router: options.router,
    createContext: async ({ req }: { req: object }) => {
      const { request, control } = pending.get(req)!;
      const context = await options.createContext(request, control);
      controls.set(context as object, control);
      return context;
    },
    responseMeta: ({ ctx, errors }: { ctx?: object; errors: unknown[] }) => {
      const control = ctx && controls.get(ctx);
      return {
        ...(errors.length === 0 && control?.status ? { status: control.status } : {}),
        headers: control ? Object.fromEntries(control.headers) : {},
      };
    },
    onError: ({ error, path }: { error: unknown; path?: string }) => options.onError?.(error, path),
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

  /** `readBody` reads a body not yet in `received.body` (null when it is too large). */
  async function dispatch(
    received: RestRequest,
    readBody: (() => Promise<string | null>) | null,
  ): Promise<RestResponse> {
    const { method, target, headers } = received;
    const pathname = target.split("?", 1)[0]!;
    const route = matchRoute(pathname);
    if (!route) return jsonAnswer(404, apiErrorBody(404, `no route for ${pathname}`));
    if (!route.methods.includes(method)) {
      return jsonAnswer(405, apiErrorBody(405, `${method} is not allowed on ${route.template}`), {
        allow: route.methods.join(", "),
      });
    }

    let request = received;
    const hasBody = BODY_METHODS.has(method);
    if (hasBody) {
      if (!JSON_CONTENT_TYPE.test(headers.get("content-type") ?? "")) {
        return jsonAnswer(415, apiErrorBody(415, "the body must be JSON (Content-Type: application/json)"));
      }
      if (readBody) {
        const body = await readBody();
        if (body === null) {
          return jsonAnswer(413, apiErrorBody(413, `the body is larger than ${options.maxBodyBytes} bytes`));
        }
        request = { ...received, body };
      }
    }

    const control = createResponseControl();
    const adapterRequest = adapterRequestOf(request, hasBody);
    pending.set(adapterRequest, { request, control });
    const answer = await new Promise<RestResponse>((resolve, reject) => {
      const answerHeaders: Record<string, string> = {};
      const response = {
        statusCode: 200,
        setHeader(name: string, value: string | string[]) {
          answerHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        },
        // A procedure that answers nothing (204) ends without a body.
        end(text?: string) {
          resolve({ status: response.statusCode, headers: answerHeaders, body: text ?? "" });
        },
      };
      (openApiHandler as (req: unknown, res: unknown) => Promise<void>)(adapterRequest, response).catch(
        reject,
      );
    });
    return finish(answer);
  }

  async function handle(
    request: RestRequest,
    readBody?: (limit: number) => Promise<string | null>,
  ): Promise<RestResponse> {
    const answer = await dispatch(request, readBody ? () => readBody(options.maxBodyBytes) : null);
    Object.assign(answer.headers, versionHeader);
    return answer;
  }

  return { handle };
}

/**
 * The request as trpc-to-openapi's node handler reads it. It must be a
 * `Request` to the handler's `instanceof` checks (otherwise the handler copies
 * a Node IncomingMessage into a new Request to get an abort signal); its own
 * properties answer every read, so no fetch-API getter runs. The body is
 * parsed once, on first read; JSON that does not parse is tRPC's PARSE_ERROR,
 * as with the library's fetch adapter. These are the reads of trpc-to-openapi
 * 3.3.0 (pinned in package.json): a version that reads another property of
 * the request throws "Illegal invocation", which every REST test would show.
 */
function adapterRequestOf(request: RestRequest, hasBody: boolean): object {
  let parsed: { value: unknown } | undefined;
  return Object.create(Request.prototype, {
    method: { value: request.method },
    url: { value: request.target },
    // A JSON body passed the check above; the library wants exactly `application/json`.
    headers: {
      value: hasBody
        ? {
            get: (name: string) => (name === "content-type" ? "application/json" : request.headers.get(name)),
          }
        : request.headers,
    },
    signal: { value: NEVER_ABORTED },
    query: { value: undefined, writable: true },
    body: {
      get() {
        if (!hasBody) return undefined;
        try {
          parsed ??= { value: JSON.parse(request.body) };
        } catch (cause) {
          throw new TRPCError({ code: "PARSE_ERROR", message: "Failed to parse request body", cause });
        }
        return parsed.value;
      },
    },
  });
}

/**
 * trpc-to-openapi's answer with the services' conventions: an error becomes
 * exactly the API error body that the errorFormatter put in `data.body`; a
 * procedure that chose a non-JSON Content-Type has its string sent as is.
 * A JSON success passes through untouched.
 */
function finish(answer: RestResponse): RestResponse {
  const { headers } = answer;
  if (answer.status >= 400) {
    const parsed = parseJson(answer.body) as { data?: { body?: ApiErrorBody } } | undefined;
    return jsonAnswer(
      answer.status,
      parsed?.data?.body ?? apiErrorBody(answer.status, "the request failed"),
      headers,
    );
  }
  const contentType = headers["content-type"] ?? "";
  if (!contentType.startsWith("application/json")) {
    return { ...answer, body: String(parseJson(answer.body) ?? "") };
  }
  headers["content-type"] = "application/json; charset=utf-8";
  return answer;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): RestResponse {
  return {
    status,
    headers: { ...headers, "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
  };
}
