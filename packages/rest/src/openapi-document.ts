import {
  generateOpenApiDocument,
  type OpenAPIObject,
  type OpenApiMeta,
  type OpenApiRouter,
  type SecuritySchemeObject,
} from "trpc-to-openapi";
import { z } from "zod";
import { DEFAULT_BODY_FIELD_AGAINST_PATH, type BodyFieldAgainstPath } from "./body-field-against-path.ts";
import { IGNORED_BODY_FIELDS } from "./fields.ts";
import { PRECONDITION_HEADERS } from "./preconditions.ts";

/** Extra OpenAPI facts a procedure states in its meta, next to `openapi`. */
export interface RestMeta {
  /** The success status when it is not 200 (201 for a create). */
  successStatus?: number;
  /** Further success statuses with their description (200 for an idempotent replay). */
  otherSuccess?: Record<number, string>;
  /** Success headers, e.g. `{ Location: "URL of the new entry" }`. */
  successHeaders?: Record<string, string>;
  /** More content types of the success response (`text/markdown`) and their schema. */
  alternateContent?: Record<string, object>;
  /** Error statuses this route can answer besides those of every route, with what they mean. */
  errors?: Record<number, string>;
  /** The body schema of an error status whose body is more than the one Error schema. */
  errorBodies?: Record<number, object>;
  /**
   * The input field that is the whole request body (an imported document);
   * the input's other fields are query parameters. Without it, the body is
   * the input, as trpc-to-openapi reads it.
   */
  bodyInput?: string;
  /** The route's body limit when it is not the service's. */
  maxBodyBytes?: number;
  /**
   * A write that takes If-Match, If-None-Match and If-Unmodified-Since
   * (preconditions.ts) and answers with the ETag of what it wrote: the
   * document lists the headers and the 412.
   */
  conditional?: boolean;
}

export type ServiceMeta = OpenApiMeta<{ rest?: RestMeta }>;

export interface DocumentOptions {
  title: string;
  version: string;
  description: string;
  license: { name: string; identifier?: string; url?: string };
  contact: { name: string; url?: string; email?: string };
  securitySchemes: Record<string, SecuritySchemeObject>;
  /** Errors every protected route can answer (401 for a bearer token, 403 for SigV4, 429...). */
  commonErrors: Record<number, string>;
  /** Errors every protected write (POST, PUT, PATCH, DELETE) can answer besides those. */
  writeErrors?: Record<number, string>;
  /** What the REST edge does with a body field repeating a path parameter (RestHandlerOptions). */
  bodyFieldAgainstPath?: BodyFieldAgainstPath;
}

const ERROR_SCHEMA: NonNullable<NonNullable<OpenAPIObject["components"]>["schemas"]>[string] = {
  type: "object",
  required: ["statusCode", "error", "message"],
  additionalProperties: false,
  properties: {
    statusCode: { type: "integer", description: "The HTTP status, repeated." },
    error: { type: "string", description: "A stable error code, e.g. NOT_FOUND." },
    message: { type: "string", description: "What went wrong, for a person." },
    issues: {
      type: "array",
      description: "Validation failures only: one per offending field.",
      items: {
        type: "object",
        required: ["path", "message"],
        additionalProperties: false,
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
  },
};

const BODY_ERRORS: Record<number, string> = {
  400: "The body is not valid JSON or fails validation (see `issues`).",
  413: "The body is too large.",
  415: "The body is not JSON, or is encoded (a `Content-Encoding` other than `identity`).",
};

/**
 * The OpenAPI 3.1 document of a router: trpc-to-openapi's paths and schemas,
 * with the services' own success statuses and the one error body.
 */
export function buildOpenApiDocument(router: OpenApiRouter, options: DocumentOptions): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: options.title,
    version: options.version,
    description: options.description,
    baseUrl: "/",
    securitySchemes: options.securitySchemes,
  });
  document.info = { ...document.info, license: options.license, contact: options.contact };
  // trpc-to-openapi's own error schemas (`error.BAD_REQUEST`, ...) describe a body the services never
  // send; every error response refers to the one Error schema instead.
  const schemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith("error.")),
  );
  document.components = { ...document.components, schemas: { ...schemas, Error: ERROR_SCHEMA } };

  /** Each route's meta and input, by its operation id. */
  const routes = new Map<
    string,
    { meta: ServiceMeta & Required<Pick<ServiceMeta, "openapi">>; input: z.ZodType | undefined }
  >();
  for (const [path, procedure] of Object.entries(
    router._def.procedures as Record<string, { _def: { meta?: ServiceMeta; inputs: unknown[] } }>,
  )) {
    const { meta, inputs } = procedure._def;
    if (!meta?.openapi) continue;
    const [input] = inputs;
    routes.set(meta.openapi.operationId ?? path.replace(/\./g, "-"), {
      meta: { ...meta, openapi: meta.openapi },
      input: input instanceof z.ZodType ? input : undefined,
    });
  }

  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationLike>)) {
      const route = routes.get(operation.operationId);
      if (!route) continue;
      const { meta, input } = route;
      if (!meta.openapi.description || !meta.openapi.tags?.length)
        throw new Error(`${method.toUpperCase()} ${meta.openapi.path} needs a description and a tag`);
      if (meta.rest?.bodyInput) splitBodyInput(operation, meta.rest.bodyInput);
      else describeBodyFields(operation, input, options);
      markDeepObjects(operation);
      if (meta.rest?.conditional) addPreconditionHeaders(operation);
      const hasParameters = (operation.parameters ?? []).some((p) => p.in === "path" || p.in === "query");
      operation.responses = responsesFor(method, operation.responses["200"]!, meta, options, hasParameters);
    }
  }
  return document;
}

/**
 * An object in a query string travels as `name[key]=value` (the REST edge
 * reads it so: route-table.ts, objectQueryFields); the document says so.
 */
function markDeepObjects(operation: OperationLike): void {
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === "query" && (parameter.schema as { type?: string } | undefined)?.type === "object") {
      Object.assign(parameter, { style: "deepObject", explode: true });
    }
  }
}

interface OperationLike {
  operationId: string;
  parameters?: { in: string; name?: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: ObjectSchemaLike }> };
  responses: Record<string, ResponseLike>;
}
interface ObjectSchemaLike {
  properties?: Record<string, object>;
  required?: string[];
  additionalProperties?: boolean;
}

/**
 * A JSON object body as the REST edge reads it. No member it does not name
 * when its input refuses them (trpc-to-openapi renders a refined object, an
 * end date checked against its start, without its `additionalProperties:
 * false`). And the members it lets a body send though they are no input: the
 * path's parameters (the id a read answered), and the fields the service sets
 * that a route ignores (`input`'s metadata, IGNORED_BODY_FIELDS).
 */
function describeBodyFields(
  operation: OperationLike,
  input: z.ZodType | undefined,
  { bodyFieldAgainstPath = DEFAULT_BODY_FIELD_AGAINST_PATH }: DocumentOptions,
): void {
  const schema = operation.requestBody?.content["application/json"]?.schema;
  if (!schema?.properties) return;
  if (refusesUnknownMembers(input)) schema.additionalProperties = false;
  for (const { in: where, name, schema: type } of operation.parameters ?? []) {
    if (where !== "path" || !name) continue;
    schema.properties[name] ??= {
      ...(type ?? {}),
      description:
        bodyFieldAgainstPath === "refused"
          ? `The path's ${name}, if sent again: another value is a 400.`
          : `The path's ${name}, if sent again: the path's value counts.`,
    };
  }
  const ignored = input?.meta()?.[IGNORED_BODY_FIELDS];
  for (const field of Array.isArray(ignored) ? (ignored as string[]) : [])
    schema.properties[field] ??= {
      description: "Ignored: a field the service sets, if a read's answer is sent back.",
    };
}

/** Whether an input refuses members it does not name: an object without a catchall, behind its preprocessing. */
function refusesUnknownMembers(input: z.ZodType | undefined): boolean {
  let inner: unknown = input;
  while (inner instanceof z.ZodPipe) inner = inner.in instanceof z.ZodTransform ? inner.out : inner.in;
  return inner instanceof z.ZodObject && inner._zod.def.catchall instanceof z.ZodNever;
}

/**
 * A route whose body is one field of its input (RestMeta.bodyInput): the
 * request body is that field's schema, and the other fields are the query
 * parameters they are read from.
 */
function splitBodyInput(operation: OperationLike, bodyInput: string): void {
  const json = operation.requestBody?.content["application/json"];
  const { properties = {}, required = [] } = json?.schema ?? {};
  if (!json || !properties[bodyInput])
    throw new Error(`${operation.operationId} has no input field ${bodyInput}`);
  json.schema = properties[bodyInput];
  operation.parameters = [
    ...(operation.parameters ?? []),
    ...Object.entries(properties)
      .filter(([name]) => name !== bodyInput)
      .map(([name, schema]) => ({ in: "query", name, required: required.includes(name), schema })),
  ];
}
interface ResponseLike {
  description: string;
  headers?: unknown;
  content?: Record<string, { schema: unknown }>;
}

const PRECONDITION_DESCRIPTIONS: Record<(typeof PRECONDITION_HEADERS)[number], string> = {
  "If-Match":
    "Write only if the resource is still this version: its ETag as a read gave it (its `updated_at` in quotes), or `*` for any. Else 412.",
  "If-None-Match":
    "`*`: write only if there is no such resource yet, else 412 (PUT /me/profile: a first profile only); or ETags the current version must not be.",
  "If-Unmodified-Since":
    "An HTTP date: write only if the resource has not changed since (whole seconds; If-Match is exact).",
};

/** A conditional write's request headers (RestMeta.conditional). */
function addPreconditionHeaders(operation: OperationLike): void {
  operation.parameters = [
    ...(operation.parameters ?? []),
    ...PRECONDITION_HEADERS.map((name) => ({
      in: "header",
      name,
      required: false,
      description: PRECONDITION_DESCRIPTIONS[name],
      schema: { type: "string" },
    })),
  ];
}

/** The success header of an answer that carries its resource's version. */
export const ETAG_HEADER = {
  ETag: "The version of the resource as answered: its `updated_at` in quotes. Send it back in If-Match to write only over this version.",
};

/** The headers a route's success answer carries: those it declares, and a conditional write's ETag. */
export function successHeadersOf(rest: RestMeta, method: string): Record<string, string> | undefined {
  // A conditional write answers the version it wrote; a delete leaves none.
  return rest.conditional && method.toLowerCase() !== "delete"
    ? { ...ETAG_HEADER, ...rest.successHeaders }
    : rest.successHeaders;
}

const PRECONDITION_ERRORS: Record<number, string> = {
  412: "A precondition failed: the resource changed since the version If-Match names (or exists, for If-None-Match: *).",
};

const PARAMETER_ERRORS: Record<number, string> = {
  400: "A path or query parameter is not valid (see `issues`): an id that is not a uuid, a value out of range.",
};

function responsesFor(
  method: string,
  success: ResponseLike,
  meta: ServiceMeta,
  options: DocumentOptions,
  hasParameters: boolean,
) {
  const rest = meta.rest ?? {};
  const successHeaders = successHeadersOf(rest, method);
  const ok: ResponseLike = {
    ...success,
    content: { ...success.content, ...schemaContent(rest.alternateContent) },
    ...(successHeaders
      ? {
          headers: Object.fromEntries(
            Object.entries(successHeaders).map(([name, description]) => [
              name,
              { description, schema: { type: "string" } },
            ]),
          ),
        }
      : {}),
  };
  const errors: Record<number, string> = {
    ...(hasParameters ? PARAMETER_ERRORS : {}),
    ...(["post", "put", "patch"].includes(method) ? BODY_ERRORS : {}),
    ...(meta.openapi?.protect === false ? {} : options.commonErrors),
    ...(meta.openapi?.protect === false || method === "get" ? {} : options.writeErrors),
    ...(rest.conditional ? PRECONDITION_ERRORS : {}),
    ...rest.errors,
    500: "An unexpected error; the body never carries internals.",
  };
  return {
    [String(rest.successStatus ?? 200)]: ok,
    ...Object.fromEntries(
      Object.entries(rest.otherSuccess ?? {}).map(([status, description]) => [
        status,
        { ...ok, description },
      ]),
    ),
    ...Object.fromEntries(
      Object.entries(errors).map(([status, description]) => [
        status,
        {
          description,
          content: {
            "application/json": {
              schema: rest.errorBodies?.[Number(status)] ?? { $ref: "#/components/schemas/Error" },
            },
          },
        },
      ]),
    ),
  };
}

function schemaContent(alternate: Record<string, object> | undefined) {
  return Object.fromEntries(Object.entries(alternate ?? {}).map(([type, schema]) => [type, { schema }]));
}
