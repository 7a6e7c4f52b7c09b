/**
 * Everything that knows how trpc-to-openapi's node handler reads a request and
 * writes a response, written against trpc-to-openapi 3.3.0 (pinned exactly in
 * package.json). A version that reads another property of the request throws
 * "Illegal invocation", which every REST test would show.
 */
import { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler, type OpenApiRouter } from "trpc-to-openapi";
import type { ResponseControl } from "./response-control.ts";
import { queryParamsOf, type RestRequest, type RestResponse } from "./answer.ts";

/** What every REST context carries: where a procedure puts its status and headers. */
export interface RestContext {
  response: ResponseControl;
}

/** The request the library is handed, carrying the context it is to use. */
interface AdapterRequest {
  context: () => Promise<RestContext>;
}

/** No procedure reads the abort signal; every request shares this one. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * Calls the procedure that `request` routes to with the context `context()`
 * builds, and answers what trpc-to-openapi answers: the data as JSON with the
 * status and headers the procedure set in `context.response`, or tRPC's error
 * shape (which the errorFormatter fills) with the error's status. A procedure
 * that answers a string under its own Content-Type (Markdown) gets that string
 * sent as it is, not JSON-encoded.
 */
export function createProcedureCall(router: OpenApiRouter, onError: (error: unknown, path?: string) => void) {
  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: AdapterRequest }) => req.context(),
    responseMeta: ({ ctx, data, errors }: { ctx?: RestContext; data: unknown[]; errors: unknown[] }) => {
      if (!ctx) return {};
      const { response } = ctx;
      const contentType = response.headers.get("content-type");
      // The library JSON-encodes every result: keep a string sent under another type as it is.
      if (errors.length === 0 && contentType && !contentType.startsWith("application/json")) {
        response.rawBody = String(data[0]);
      }
      return {
        ...(errors.length === 0 && response.status ? { status: response.status } : {}),
        headers: Object.fromEntries(response.headers),
      };
    },
    onError: ({ error, path }: { error: unknown; path?: string }) => onError(error, path),
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]) as unknown as (
    req: object,
    res: object,
  ) => Promise<void>;

  /** `bodyInput`: the input field the body is, the others coming from the query (RestMeta). */
  return function callProcedure(
    request: RestRequest,
    hasBody: boolean,
    context: () => Promise<RestContext>,
    bodyInput?: string,
  ): Promise<RestResponse> {
    let built: RestContext | undefined;
    const adapterRequest = adapterRequestOf(
      request,
      hasBody,
      bodyInput,
      async () => (built = await context()),
    );
    return new Promise<RestResponse>((resolve, reject) => {
      const headers: Record<string, string> = {};
      const response = {
        statusCode: 200,
        setHeader(name: string, value: string | string[]) {
          headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        },
        end(text?: string) {
          const body = (response.statusCode < 400 ? built?.response.rawBody : undefined) ?? text ?? "";
          resolve({ status: response.statusCode, headers, body });
        },
      };
      handler(adapterRequest, response).catch(reject);
    });
  };
}

/**
 * The request as the library's node handler reads it. It must be a `Request`
 * to the handler's `instanceof` checks (otherwise it copies the request into a
 * new one to get an abort signal); its own properties answer every read, so no
 * fetch-API getter runs. The body is parsed once, on first read; JSON that does
 * not parse is tRPC's PARSE_ERROR, as with the library's fetch adapter.
 */
function adapterRequestOf(
  request: RestRequest,
  hasBody: boolean,
  bodyInput: string | undefined,
  context: AdapterRequest["context"],
): object {
  let parsed: { value: unknown } | undefined;
  const inputOf = (body: unknown) => (bodyInput ? { ...queryOf(request.target), [bodyInput]: body } : body);
  return Object.create(Request.prototype, {
    method: { value: request.method },
    url: { value: request.target },
    // A JSON body passed the handler's check; the library wants exactly `application/json`.
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
          parsed ??= { value: inputOf(JSON.parse(request.body)) };
        } catch (cause) {
          throw new TRPCError({ code: "PARSE_ERROR", message: "Failed to parse request body", cause });
        }
        return parsed.value;
      },
    },
    context: { value: context },
  });
}

/** The query parameters of a request target, the last value of each. */
function queryOf(target: string): Record<string, string> {
  return Object.fromEntries(queryParamsOf(target));
}
