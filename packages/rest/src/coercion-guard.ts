import type { OpenApiRouter } from "trpc-to-openapi";

interface SchemaDef {
  type: string;
  shape?: Record<string, unknown>;
  element?: unknown;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  options?: unknown[];
  left?: unknown;
  right?: unknown;
  keyType?: unknown;
  valueType?: unknown;
  items?: unknown[];
}

const COERCIBLE = new Set(["number", "boolean", "bigint", "date"]);
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * trpc-to-openapi turns on zod's coercion for every number, boolean and date
 * it finds in an input, bodies included, by writing `coerce = true` into the
 * schema (so `"5"` and `true` would pass as numbers, and the tRPC transport
 * would coerce too, since the schema is shared). Query strings need that;
 * JSON bodies must not: this makes the flag of every schema reachable from a
 * body route's input ignore the write.
 */
export function guardBodiesAgainstCoercion(router: OpenApiRouter): void {
  const procedures = router._def.procedures as Record<
    string,
    { _def: { inputs?: unknown[]; meta?: { openapi?: { method?: string } } } }
  >;
  const seen = new Set<unknown>();
  for (const procedure of Object.values(procedures)) {
    if (!BODY_METHODS.has(procedure._def.meta?.openapi?.method ?? "")) continue;
    for (const input of procedure._def.inputs ?? []) guard(input, seen);
  }
}

function guard(schema: unknown, seen: Set<unknown>): void {
  const def = (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
  if (!def || seen.has(schema)) return;
  seen.add(schema);
  if (COERCIBLE.has(def.type)) {
    if (!Object.getOwnPropertyDescriptor(def, "coerce")?.set) {
      Object.defineProperty(def, "coerce", { get: () => false, set: () => {}, configurable: false });
    }
    return;
  }
  const children = [
    ...Object.values(def.shape ?? {}),
    def.element,
    def.innerType,
    def.in,
    def.out,
    ...(def.options ?? []),
    def.left,
    def.right,
    def.keyType,
    def.valueType,
    ...(def.items ?? []),
  ];
  for (const child of children) guard(child, seen);
}
