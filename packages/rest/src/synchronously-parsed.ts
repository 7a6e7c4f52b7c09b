import { z } from "zod";

/** Each schema's own parseAsync, kept when synchronouslyParsed replaced it. */
const ownParseAsync = new WeakMap<z.ZodType, z.ZodType["parseAsync"]>();

/**
 * `schema`, changed so that tRPC validates with its synchronous parse. tRPC
 * calls a schema's parseAsync, and zod 4 runs the compiled parser of an
 * object only in parse: a whole resume's output took 0.57 ms to validate
 * with parseAsync and 0.21 ms with parse (docs/benchmarks.md, "Resume reads
 * and writes"). The answer is the same (parsedSyncFirst). The instance
 * itself is changed, not a copy: its OpenAPI metadata is registered under
 * that instance.
 */
export function synchronouslyParsed<S extends z.ZodType>(schema: S): S {
  ownParseAsync.set(schema, schema.parseAsync.bind(schema));
  schema.parseAsync = async (data, params) => parsedSyncFirst(schema, data, params);
  return schema;
}

/**
 * `schema.parse`, or the schema's own parseAsync for one that has to wait (an
 * async refinement). Zod then runs its callbacks twice (once to find out), and
 * a promise of the first run that rejects goes unheard: an unhandled rejection
 * ends the process. No schema of this project waits; docs/architecture.md
 * ("How to add a route") says to keep it so.
 */
export function parsedSyncFirst<S extends z.ZodType>(
  schema: S,
  data: unknown,
  params?: z.core.ParseContext<z.core.$ZodIssue>,
): z.output<S> | Promise<z.output<S>> {
  try {
    return schema.parse(data, params);
  } catch (error) {
    if (!(error instanceof z.core.$ZodAsyncError)) throw error;
    const parseAsync = ownParseAsync.get(schema) ?? schema.parseAsync.bind(schema);
    return parseAsync(data, params) as Promise<z.output<S>>;
  }
}
