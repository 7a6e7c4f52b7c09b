import { isUtf8 } from "node:buffer";
import type { OpenAPIObject, OpenApiRouter } from "trpc-to-openapi";
import { apiErrorOf, invalidRequestError } from "./api-error.ts";
import { errorAnswer, jsonAnswer, methodNotAllowedAnswer, type Answer, type RestRequest } from "./answer.ts";
import { DEFAULT_BODY_FIELD_AGAINST_PATH, type BodyFieldAgainstPath } from "./body-field-against-path.ts";
import { formatDocumentPath, type DocumentPath } from "./document-path.ts";
import { DomainError } from "./domain-error.ts";
import { entityTagOf } from "./preconditions.ts";
import type { ResponseControl } from "./response-control.ts";
import { namedFindings } from "./json-text-walk.ts";
import { repeatedMembers } from "./repeated-members.ts";
import { isJsonNumberText, roundedNumbers } from "./rounded-numbers.ts";
import type { RequestTarget } from "./request-target.ts";
import { createRouteTable, type Procedure, type Route, type RouteTable } from "./route-table.ts";

/** What every REST context carries: where a procedure puts its headers (and a status its route does not declare). */
export interface RestContext {
  response: ResponseControl;
}

export interface RestHandlerOptions {
  router: OpenApiRouter;
  /** The router's OpenAPI document: its paths decide 404 and 405 before any procedure runs. */
  document: OpenAPIObject;
  maxBodyBytes: number;
  /** What a body field repeating a path parameter with another value gets (BodyFieldAgainstPath). */
  bodyFieldAgainstPath?: BodyFieldAgainstPath;
  /** Every failure the service answered with a 5xx, for the server's log (`requestId`: RestCall's). */
  onError?(error: unknown, path: string | undefined, requestId: string | undefined): void;
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
  readBody?(limit: number): Promise<Buffer | null>;
  /** The request's id (X-Request-Id), handed to `onError` for the line it logs. */
  requestId?: string;
  /**
   * Refuses (throws, as a procedure would: a DomainError) a caller who may not
   * call the route's procedure at all, before its body is read or parsed: a
   * caller without a token or the right gets its 401 or 403 whatever it sent.
   */
  authorize?(procedure: Procedure): void | Promise<void>;
}

export interface RestHandler {
  handle(request: RestRequest, call: RestCall): Promise<Answer>;
  /** The template of the route a path matches (`/me/{collection}/{id}`), for logs and metrics. */
  routeOf(pathname: string): string | undefined;
  /** The body limit of a request to `pathname`: its route's own (RestMeta.maxBodyBytes) or the service's. */
  maxBodyBytesOf(method: string, pathname: string): number;
  /** The routes and procedures, for the tRPC transport's methods and body limits. */
  table: RouteTable;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;
const CHARSET_PARAMETERS = /;\s*charset\s*=\s*"?([^";\s]*)/gi;

/**
 * The HTTP side of every route of a service: the route table is built once at
 * start-up (routes from the OpenAPI document, joined to their procedures);
 * per request, 404 / 405 (with Allow) from the table, 415 for a body that is
 * not JSON or is encoded (gzip), 413 past the route's body limit, then the
 * procedure is called directly with its input (path parameters, query or
 * JSON body), and its result answered with the success status its metadata
 * declares, or its failure with the one error body (apiErrorOf).
 */
export function createRestHandler(options: RestHandlerOptions): RestHandler {
  const table = createRouteTable(options.router, options.document);
  const bodyLimitOf = (route: Route | undefined) =>
    route?.procedure.rest.maxBodyBytes ?? options.maxBodyBytes;

  async function handle(received: RestRequest, call: RestCall): Promise<Answer> {
    const { method, target, headers } = received;
    const pathname = target.path;
    const match = table.match(pathname);
    if (!match) return errorAnswer(404, `no route for ${pathname}`);
    const route = match.routes.get(method === "HEAD" ? "GET" : method);
    if (!route || !match.methods.includes(method))
      return methodNotAllowedAnswer(method, match.template, match.methods);
    if (call.authorize) {
      try {
        // Awaited only when it is asynchronous: a ledger post pays no turn for it.
        const authorizing = call.authorize(route.procedure);
        if (authorizing) await authorizing;
      } catch (error) {
        return failureAnswer(error, route.procedure.path, call.requestId);
      }
    }

    let text = "";
    if (BODY_METHODS.has(method)) {
      // A POST whose fields are all optional (a share link) needs no `{}` to be sent; a whole
      // resume put (bodyInput) does, or an empty request would replace the resume with nothing.
      if (sentNothing(headers) && !route.procedure.rest.bodyInput) text = "{}";
      else {
        const refusal = bodyRefusal(headers);
        if (refusal) return refusal;
        let bytes = received.body;
        if (call.readBody) {
          const limit = bodyLimitOf(route);
          const read = await call.readBody(limit);
          if (read === null) return errorAnswer(413, `the body is larger than ${limit} bytes`);
          bytes = read;
        }
        // Decoded as it is, not with U+FFFD for what is not UTF-8: that would be stored as if sent.
        if (!isUtf8(bytes)) return errorAnswer(400, "the body is not UTF-8, as JSON must be");
        // A leading byte order mark, as Windows tools write one, is no part of the JSON text: RFC 8259
        // (8.1) lets a parser ignore it, and the editor's file reader does.
        text = bytes.toString("utf8");
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
    }
    return answerCall(route, match.parameters, target, text, call);
  }

  async function answerCall(
    route: Route,
    parameters: Record<string, string>,
    target: RequestTarget,
    body: string,
    { context, requestId }: RestCall,
  ): Promise<Answer> {
    const { procedure } = route;
    let ctx: RestContext | undefined;
    let input: unknown;
    try {
      input = inputOf(
        route,
        parameters,
        target,
        body,
        options.bodyFieldAgainstPath ?? DEFAULT_BODY_FIELD_AGAINST_PATH,
      );
      ctx = await context();
      const data = await procedure.call(ctx, input);
      return successAnswer(route, ctx.response, data);
    } catch (error) {
      return failureAnswer(error, procedure.path, requestId, ctx?.response.headers, input);
    }
  }

  /**
   * A failure as the one error body, with the headers the procedure set before
   * it failed (and the input it refused: a field left out "is required"); a 5xx is logged.
   */
  function failureAnswer(
    error: unknown,
    path: string,
    requestId: string | undefined,
    setBefore?: ResponseControl["headers"],
    input?: unknown,
  ): Answer {
    const { status, body, headers } = apiErrorOf(error, input);
    if (status >= 500) options.onError?.(error, path, requestId);
    return jsonAnswer(status, body, { ...Object.fromEntries(setBefore ?? []), ...headers });
  }

  return {
    handle,
    routeOf: (pathname) => table.match(pathname)?.template,
    maxBodyBytesOf: (method, pathname) => bodyLimitOf(table.match(pathname)?.routes.get(method)),
    table,
  };
}

/** 415 for a body that is not JSON, is said to be in another charset than UTF-8, or is encoded. */
function bodyRefusal(headers: RestRequest["headers"]): Answer | undefined {
  const contentType = headers.get("content-type") ?? "";
  if (!JSON_CONTENT_TYPE.test(contentType)) {
    return errorAnswer(415, "the body must be JSON (Content-Type: application/json)");
  }
  // JSON is UTF-8 (RFC 8259, 8.1): a body said to be Latin-1 would be read as what it is not.
  // Every charset said counts: of two, which one the sender meant would be a guess.
  for (const [, said = ""] of contentType.matchAll(CHARSET_PARAMETERS)) {
    const charset = said.toLowerCase();
    if (charset !== "utf-8" && charset !== "utf8") {
      return errorAnswer(415, `the body must be JSON in UTF-8, not ${charset}`);
    }
  }
  // Not decoded here: a compressed body would read as malformed JSON, and a plain one sent
  // under a coding's name would be taken for what it does not say (RFC 9110, 15.5.16).
  const encoding = headers.get("content-encoding");
  if (encoding !== null && !/^\s*identity\s*$/i.test(encoding)) {
    return errorAnswer(415, `the body must not be encoded (Content-Encoding: ${encoding})`, {
      "accept-encoding": "identity",
    });
  }
  return undefined;
}

/** No body and nothing said about one: no Content-Type, no coding, a length of 0 or none at all. */
function sentNothing(headers: RestRequest["headers"]): boolean {
  const length = headers.get("content-length");
  return (
    headers.get("content-type") === null &&
    headers.get("content-encoding") === null &&
    (length === "0" || (length === null && headers.get("transfer-encoding") === null))
  );
}

/**
 * The procedure's raw input, as trpc-to-openapi read it before (kept so that
 * every answer stays the same): path parameters over the JSON body, or over
 * the query for GET and DELETE (one value of a key as text, several as a
 * list, numbers converted). With RestMeta.bodyInput, the body is that one
 * field and the query gives the others.
 */
function inputOf(
  route: Route,
  parameters: Record<string, string>,
  target: RequestTarget,
  text: string,
  bodyFieldAgainstPath: BodyFieldAgainstPath,
): unknown {
  if (!BODY_METHODS.has(route.method)) {
    refuseMalformedQuery(route, target.raw);
    return { ...queryInput(route, target.query), ...parameters };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DomainError(400, "the body is not valid JSON");
  }
  // Spread into the path's parameters, null, a number or a list would read as no fields at all.
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new DomainError(400, "the body must be a JSON object");
  }
  const { bodyInput } = route.procedure.rest;
  // A document's issues name its own paths, as a person reads them (`work[3].startDate`).
  const formatPath = bodyInput ? formatDocumentPath : (path: DocumentPath) => path.join(".");
  refuseEach(
    repeatedMembers(text, body),
    formatPath,
    () => "is given more than once: send it once",
    "members",
  );
  refuseEach(
    roundedNumbers(text),
    formatPath,
    ({ sent, read }) => `${sent} reads as ${read} in JSON: send a number a double holds exactly`,
    "numbers",
  );
  if (bodyInput) {
    refuseMalformedQuery(route, target.raw);
    return { ...queryInput(route, target.query), [bodyInput]: body, ...parameters };
  }
  if (bodyFieldAgainstPath === "refused") refuseBodyFieldsAgainstPath(body, parameters);
  return { ...body, ...parameters };
}

/**
 * A 400 naming the first 100 of what a body's text holds and its parsed value
 * hides (a 4 MiB batch could hold 200,000 of them), and how many more.
 */
function refuseEach<T extends { path: DocumentPath }>(
  found: T[],
  formatPath: (path: DocumentPath) => string,
  messageOf: (item: T) => string,
  kind: string,
): void {
  if (found.length === 0) return;
  throw invalidRequestError(
    namedFindings(
      found,
      (item) => ({ path: formatPath(item.path), message: messageOf(item) }),
      (others) => ({ path: "", message: `and ${others} more such ${kind}` }),
    ),
  );
}

/** A 400 naming each body field that repeats a path parameter with another value (a uuid's case aside). */
function refuseBodyFieldsAgainstPath(body: object, parameters: Record<string, string>): void {
  const issues = Object.entries(parameters)
    .filter(([name, value]) => {
      if (!Object.hasOwn(body, name)) return false;
      const sent: unknown = (body as Record<string, unknown>)[name];
      return typeof sent !== "string" || sent.toLowerCase() !== value.toLowerCase();
    })
    .map(([name, value]) => ({ path: name, message: `must be the path's ${name} (${value}), or left out` }));
  if (issues.length > 0) throw invalidRequestError(issues);
}

function queryInput(route: Route, query: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const objects = new Map<string, [string, unknown][]>();
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    // Refused with its own words: the schema would call the list it makes no date, or no number.
    // A parameter the route does not take (a cache buster) is the schema's to ignore or refuse.
    if (values.length > 1 && takesParameter(route, key) && !route.listQueryFields.has(key)) {
      throw invalidRequestError([{ path: key, message: "is given more than once: send it once" }]);
    }
    const value = values.length === 1 ? values[0] : values;
    const field = objectFieldNamed(route, key);
    if (field === undefined) {
      // Number() would read an empty value as 0 and `0x10` as 16: those reach the schema as they
      // are, to be refused as no number.
      const numeric =
        route.numericQueryFields.has(key) && typeof value === "string" && isJsonNumberText(value);
      input[key] = numeric ? Number(value) : value;
      continue;
    }
    const property =
      key.startsWith(`${field}[`) && key.endsWith("]") ? key.slice(field.length + 1, -1) : null;
    // Dropped as an unknown parameter, a filter the client meant would answer everything unfiltered.
    if (property === null || /[[\]]/.test(property)) {
      throw invalidRequestError([{ path: key, message: `is not a filter: write ${field}[KEY]=VALUE` }]);
    }
    objects.set(field, [...(objects.get(field) ?? []), [property, value]]);
  }
  // fromEntries makes every key its own property, "__proto__" too (which the schema then refuses).
  for (const [field, entries] of objects) input[field] = Object.fromEntries(entries);
  return input;
}

/**
 * A 400 naming each query parameter the route takes whose percent-encoding
 * is no UTF-8 (`%FF`, `%ZZ`, an encoded lone surrogate): URLSearchParams
 * would read it as U+FFFD, or as the text it is, and search for what the
 * client did not send. A parameter the route does not take is the schema's.
 */
function refuseMalformedQuery(route: Route, raw: string): void {
  const question = raw.indexOf("?");
  if (question < 0 || !raw.includes("%", question)) return;
  const issues = raw
    .slice(question + 1)
    .split("&")
    .filter((pair) => !isWellEncoded(pair))
    .map((pair) => new URLSearchParams(pair).keys().next().value ?? pair)
    .filter((key) => takesParameter(route, key))
    .map((key) => ({ path: key, message: "is not percent-encoded UTF-8" }));
  if (issues.length > 0) throw invalidRequestError(issues);
}

/** Whether a query parameter names a field of the route's input (`metadata[k]` its `metadata`). */
const takesParameter = (route: Route, key: string) =>
  route.queryFields.has(key) || objectFieldNamed(route, key) !== undefined;

function isWellEncoded(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The object field (`metadata`) a query key is written as one of, well (`metadata[k]`) or not (`metadata.k`). */
function objectFieldNamed(route: Route, key: string): string | undefined {
  for (const field of route.objectQueryFields) {
    if (key.startsWith(`${field}[`) || key.startsWith(`${field}.`)) return field;
  }
  return undefined;
}

/**
 * A result as its answer: the route's declared success status unless the
 * procedure chose another it declares (a replay's 200), the headers it set
 * (and the ETag of its `updated_at`, where the route declares one), and the result as JSON, or as it is under a Content-Type of its own
 * (Markdown, HTML; a Buffer's bytes: PDF, Word). A status the route does not declare, or that it declares
 * as its status anyway, is a mistake of the procedure's: it fails loudly.
 */
function successAnswer(route: Route, response: ResponseControl, data: unknown): Answer {
  const { successStatus = 200, otherSuccess = {} } = route.procedure.rest;
  if (response.status !== undefined && !(response.status in otherSuccess)) {
    throw new Error(
      `${route.procedure.path} set status ${response.status}; its route declares ${successStatus} and, besides, ${Object.keys(otherSuccess).join(", ") || "none"}`,
    );
  }
  const headers = Object.fromEntries(response.headers);
  const version = route.answersVersion ? (data as { updated_at?: unknown }).updated_at : undefined;
  if (typeof version === "string") headers.etag = entityTagOf(version);
  const status = response.status ?? successStatus;
  const contentType = headers["content-type"];
  if (contentType && !contentType.startsWith("application/json")) {
    return { status, headers, body: Buffer.isBuffer(data) ? data : String(data) };
  }
  return jsonAnswer(status, data, headers);
}
