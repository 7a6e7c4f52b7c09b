import { createOpenApiFetchHandler, type OpenAPIObject, type OpenApiRouter } from "trpc-to-openapi";
import { apiErrorBody, type ApiErrorBody } from "./api-error.ts";
import { guardBodiesAgainstCoercion } from "./coercion-guard.ts";
import { createResponseControl, type ResponseControl } from "./response-control.ts";
import { createRouteTable } from "./route-table.ts";

export interface RestHandlerOptions<TContext> {
  router: OpenApiRouter;
  /** The router's OpenAPI document: its paths decide 404 and 405 before any procedure runs. */
  document: OpenAPIObject;
  /** Builds the tRPC context; `body` is the raw request body (for signature checks). */
  createContext(request: Request, response: ResponseControl, body: string): Promise<TContext>;
  maxBodyBytes: number;
  /** Sent as the `API-Version` header of every response. */
  apiVersion?: string;
  onError?(error: unknown, path: string | undefined): void;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * Serves a tRPC router as REST through trpc-to-openapi, adding what the
 * services promise on every route: 404 / 405 (with Allow) from the route table,
 * 415 for a body that is not JSON, 413 past `maxBodyBytes`, the documented error
 * body for every failure, and procedure-chosen status codes and headers.
 */
export function createRestHandler<TContext>(options: RestHandlerOptions<TContext>) {
  const matchRoute = createRouteTable(options.document);
  guardBodiesAgainstCoercion(options.router);

  async function dispatch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const route = matchRoute(url.pathname);
    if (!route) return errorResponse(apiErrorBody(404, `no route for ${url.pathname}`));
    if (!route.methods.includes(request.method)) {
      return errorResponse(apiErrorBody(405, `${request.method} is not allowed on ${route.template}`), {
        Allow: route.methods.join(", "),
      });
    }

    let body = "";
    const headers = new Headers(request.headers);
    if (BODY_METHODS.has(request.method)) {
      const contentType = request.headers.get("content-type") ?? "";
      if (!/^application\/json\s*(;|$)/i.test(contentType)) {
        return errorResponse(apiErrorBody(415, "the body must be JSON (Content-Type: application/json)"));
      }
      const read = await readBody(request, options.maxBodyBytes);
      if (read === null) {
        return errorResponse(apiErrorBody(413, `the body is larger than ${options.maxBodyBytes} bytes`));
      }
      body = read;
      headers.set("content-type", "application/json");
    }

    const control = createResponseControl();
    const forwarded = new Request(url, {
      method: request.method,
      headers,
      ...(BODY_METHODS.has(request.method) ? { body } : {}),
    });
    const answer = await createOpenApiFetchHandler({
      // The adapter strips `endpoint` from the URL; our routes are already at the root.
      endpoint: "" as `/${string}`,
      req: forwarded,
      router: options.router,
      createContext: () => options.createContext(request, control, body),
      responseMeta: ({ errors }) => ({
        ...(errors.length === 0 && control.status ? { status: control.status } : {}),
        headers: Object.fromEntries(control.headers),
      }),
      onError: ({ error, path }) => options.onError?.(error, path),
    });
    return finish(answer);
  }

  return async function handleRestRequest(request: Request): Promise<Response> {
    const response = await dispatch(request);
    if (options.apiVersion) response.headers.set("API-Version", options.apiVersion);
    return response;
  };
}

/** The body as text, or null when it is longer than `limit` bytes. */
async function readBody(request: Request, limit: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return null;
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * trpc-to-openapi's answer with the services' conventions: an error becomes
 * exactly the API error body that the errorFormatter put in `data.body`; a
 * procedure that chose a non-JSON Content-Type has its string sent as is.
 */
async function finish(answer: Response): Promise<Response> {
  const text = await answer.text();
  const headers = new Headers(answer.headers);
  if (answer.status >= 400) {
    const parsed = parseJson(text) as { message?: string; data?: { body?: ApiErrorBody } } | undefined;
    return errorResponse(
      parsed?.data?.body ?? apiErrorBody(answer.status, "the request failed"),
      headers,
      answer.status,
    );
  }
  const contentType = headers.get("content-type") ?? "";
  if (!contentType.startsWith("application/json")) {
    return new Response(String(parseJson(text) ?? ""), { status: answer.status, headers });
  }
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(text, { status: answer.status, headers });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function errorResponse(
  body: ApiErrorBody,
  headers: Headers | Record<string, string> = {},
  status = body.statusCode,
): Response {
  const merged = new Headers(headers);
  merged.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers: merged });
}
