import type { OpenAPIObject, OpenApiRouter } from "trpc-to-openapi";
import { successHeadersOf, type RestMeta, type ServiceMeta } from "./openapi-document.ts";
import { procedureRunnerOf, type RunnableProcedureDef } from "./procedure-runner.ts";

interface ProcedureDef extends Omit<RunnableProcedureDef, "type"> {
  type: RunnableProcedureDef["type"] | "subscription";
  meta?: ServiceMeta;
}

/** One procedure of the router, as both transports need it. */
export interface Procedure {
  /** Its tRPC path: `experience.create`. */
  path: string;
  type: "query" | "mutation";
  /** Its REST facts (success status, body limit, body input); {} when it states none. */
  rest: RestMeta;
  /** Its whole metadata, for what a service checks of a route before its body (RestCall.authorize). */
  meta: ServiceMeta | undefined;
  /** Calls it with a context and a raw input as tRPC would (procedure-runner.ts): its result, or the TRPCError it failed with. */
  call(ctx: unknown, input: unknown): Promise<unknown>;
}

/** A REST route: a method on a path template, served by one procedure. */
export interface Route {
  method: string;
  template: string;
  procedure: Procedure;
  /** Input fields read from the query string that are numbers, converted as zod's coercion would. */
  numericQueryFields: ReadonlySet<string>;
  /** Input fields that are objects, read from `name[key]=value` pairs (OpenAPI's deepObject). */
  objectQueryFields: ReadonlySet<string>;
  /** The input's top-level fields, for a query route: what a query parameter may name (others are ignored or refused by the schema). */
  queryFields: ReadonlySet<string>;
  /** Input fields that are lists, which a query gives by repeating the parameter (any other is given once). */
  listQueryFields: ReadonlySet<string>;
  /** Its answer declares an ETag: the edge sets it from the answer's `updated_at` (preconditions.ts). */
  answersVersion: boolean;
}

/** What a request path matched: its template, the methods it takes, the path's parameters. */
export interface RouteMatch {
  template: string;
  /** Upper-case; HEAD wherever GET is (answered as GET without its body). */
  methods: string[];
  routes: ReadonlyMap<string, Route>;
  parameters: Record<string, string>;
}

export interface RouteTable {
  match(pathname: string): RouteMatch | undefined;
  /** The procedure at a tRPC path (`a.b`), for tRPC's own transport. */
  procedure(path: string): Procedure | undefined;
}

/**
 * The router's routes, built once at start-up: paths and methods from its
 * OpenAPI document (trpc-to-openapi makes it from the procedures' meta), each
 * joined to its procedure, so that a request costs one match and one call.
 * Static segments win over parameters (`/me/resume` before `/me/{collection}`).
 */
export function createRouteTable(router: OpenApiRouter, document: OpenAPIObject): RouteTable {
  const procedures = new Map<string, Procedure>();
  const byRoute = new Map<string, Procedure & { def: ProcedureDef }>();
  for (const [path, value] of Object.entries(router._def.procedures as Record<string, unknown>)) {
    const fn = value as { _def: ProcedureDef };
    const { type, meta } = fn._def;
    if (type === "subscription") continue;
    const procedure: Procedure = {
      path,
      type,
      rest: meta?.rest ?? {},
      meta,
      call: procedureRunnerOf({ ...fn._def, type }, path),
    };
    procedures.set(path, procedure);
    if (meta?.openapi)
      byRoute.set(`${meta.openapi.method} ${meta.openapi.path}`, { ...procedure, def: fn._def });
  }

  const paths = Object.entries(document.paths ?? {})
    .map(([template, item]) => {
      const routes = new Map<string, Route>();
      for (const method of Object.keys(item ?? {}).map((m) => m.toUpperCase())) {
        const procedure = byRoute.get(`${method} ${template}`);
        if (!procedure) continue;
        const { def, ...served } = procedure;
        routes.set(method, {
          method,
          template,
          procedure: served,
          numericQueryFields: numericQueryFields(method, def),
          objectQueryFields: objectQueryFields(method, def),
          queryFields: queryFields(method, def, served.rest?.bodyInput),
          listQueryFields: listQueryFields(method, def),
          answersVersion: "ETag" in (successHeadersOf(served.rest, method) ?? {}),
        });
      }
      const methods = [...routes.keys()].flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name!);
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "([^/]+)")}/?$`);
      return { template, routes, methods, names, pattern };
    })
    .sort((a, b) => a.names.length - b.names.length);

  return {
    match(pathname) {
      for (const { template, routes, methods, names, pattern } of paths) {
        const found = pattern.exec(pathname);
        if (!found) continue;
        const parameters = Object.fromEntries(names.map((name, i) => [name, found[i + 1]!]));
        return { template, methods, routes, parameters };
      }
      return undefined;
    },
    procedure: (path) => procedures.get(path),
  };
}

/**
 * The top-level input fields of a query route (GET, DELETE) that are numbers:
 * a query string carries text, which is converted with Number() as zod's
 * coercion does (trpc-to-openapi's behaviour, kept). Other coercible kinds
 * (boolean, where "false" would read as true) are refused at start-up: no
 * route has one, and one that did would need a rule of its own.
 */
function numericQueryFields(method: string, def: ProcedureDef): Set<string> {
  const fields = new Set<string>();
  if (method !== "GET" && method !== "DELETE") return fields;
  if (def.inputs.length > 1) throw new Error("a REST procedure takes one input schema");
  const shape = objectShapeOf(def.inputs[0]);
  for (const [field, schema] of Object.entries(shape ?? {})) {
    const kind = innerKindOf(schema);
    if (kind === "number") fields.add(field);
    else if (kind === "boolean" || kind === "bigint" || kind === "date") {
      throw new Error(`query field ${field} is a ${kind}: the REST edge converts only numbers from text`);
    }
  }
  return fields;
}

/**
 * The top-level input fields a route reads from the query: every one of a
 * query route (GET, DELETE), every one but the body of a route whose body is
 * one field of its input (RestMeta.bodyInput: `PUT /me/resume?format=`).
 */
function queryFields(method: string, def: ProcedureDef, bodyInput: string | undefined): Set<string> {
  const fields = Object.keys(objectShapeOf(def.inputs[0]) ?? {});
  if (method === "GET" || method === "DELETE") return new Set(fields);
  return new Set(bodyInput ? fields.filter((field) => field !== bodyInput) : []);
}

/** The top-level input fields of a query route that are records (of text): `metadata[key]=value`. */
function objectQueryFields(method: string, def: ProcedureDef): Set<string> {
  if (method !== "GET" && method !== "DELETE") return new Set();
  return new Set(
    Object.entries(objectShapeOf(def.inputs[0]) ?? {})
      .filter(([, schema]) => innerKindOf(schema) === "record")
      .map(([field]) => field),
  );
}

/** The top-level input fields of a query route that are lists. */
function listQueryFields(method: string, def: ProcedureDef): Set<string> {
  if (method !== "GET" && method !== "DELETE") return new Set();
  return new Set(
    Object.entries(objectShapeOf(def.inputs[0]) ?? {})
      .filter(([, schema]) => isList(schema))
      .map(([field]) => field),
  );
}

interface ZodDef {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  element?: unknown;
  in?: unknown;
  out?: unknown;
}

const defOf = (schema: unknown) => (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;

function objectShapeOf(schema: unknown): Record<string, unknown> | undefined {
  const def = defOf(schema);
  if (def?.type === "object") return def.shape;
  if (def?.type === "pipe") return objectShapeOf(def.in);
  return undefined;
}

const WRAPPERS = ["optional", "default", "prefault", "nullable"];

/** Whether a field is a list, under optional, default and nullable wrappers. */
function isList(schema: unknown): boolean {
  const def = defOf(schema);
  if (!def) return false;
  if (WRAPPERS.includes(def.type)) return isList(def.innerType);
  if (def.type === "pipe") return isList(defOf(def.in)?.type === "transform" ? def.out : def.in);
  return def.type === "array";
}

/** A field's kind under optional, default, nullable and array wrappers. */
function innerKindOf(schema: unknown): string | undefined {
  const def = defOf(schema);
  if (!def) return undefined;
  if (WRAPPERS.includes(def.type)) return innerKindOf(def.innerType);
  if (def.type === "array") return innerKindOf(def.element);
  // A preprocessed field (a transform into a schema) is of its schema's kind.
  if (def.type === "pipe") return innerKindOf(defOf(def.in)?.type === "transform" ? def.out : def.in);
  return def.type;
}
