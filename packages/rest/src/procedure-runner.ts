import { getTRPCErrorFromUnknown, TRPCError } from "@trpc/server";
import { isObject, middlewareMarker } from "@trpc/server/unstable-core-do-not-import";
import type { z } from "zod";
import { parsedSyncFirst } from "./synchronously-parsed.ts";

/** A middleware of a procedure, as tRPC keeps it; its input and output validators say which they are. */
type Middleware = ((options: MiddlewareOptions) => Promise<MiddlewareResult>) & { _type?: string };

interface MiddlewareOptions {
  path: string;
  type: "query" | "mutation";
  ctx: unknown;
  input: unknown;
  getRawInput(): Promise<unknown>;
  meta: unknown;
  signal: undefined;
  batchIndex: number;
  next(options?: {
    ctx?: object;
    input?: unknown;
    getRawInput?: () => Promise<unknown>;
  }): Promise<MiddlewareResult>;
}

type MiddlewareResult =
  | { ok: true; data: unknown; ctx?: unknown }
  | { ok: false; error: TRPCError; marker?: typeof middlewareMarker };

/** What tRPC keeps of a procedure (`procedure._def`), as much as a run needs. */
export interface RunnableProcedureDef {
  type: "query" | "mutation";
  meta?: unknown;
  inputs: unknown[];
  output?: unknown;
  middlewares: Middleware[];
  /** Set by `experimental_caller`: such a procedure is called its own way, which this runner does not know. */
  experimental_caller?: boolean;
}

/**
 * Calls a procedure with a context and a raw input as tRPC's own caller does
 * (its middlewares in order, each with `next`; the same options, the same
 * results, the same errors), without two of that caller's costs, which every
 * REST request paid: the call's options copied twice per middleware by a
 * compiled-down object spread, and validation by `parseAsync`, which in zod 4
 * skips an object's compiled parser (see synchronouslyParsed). The input and
 * output validators are rebuilt from the procedure's own schemas, with the
 * errors tRPC's throw; the procedure's other middlewares run as they are.
 * Measured: docs/benchmarks.md, "Posting". A procedure whose shape this
 * does not know (an `experimental_caller`, or validators that do not match
 * its schemas, after a tRPC upgrade) is refused when the route table is
 * built, never run differently.
 */
export function procedureRunnerOf(
  def: RunnableProcedureDef,
  path: string,
): (ctx: unknown, input: unknown) => Promise<unknown> {
  const middlewares = validatorsRebuilt(def, path);
  const { type, meta } = def;

  async function runFrom(
    index: number,
    ctx: unknown,
    input: unknown,
    getRawInput: () => Promise<unknown>,
  ): Promise<MiddlewareResult> {
    try {
      // Called as a plain function, as tRPC calls it (`this` undefined).
      const middleware = middlewares[index]!;
      return await middleware({
        path,
        getRawInput,
        ctx,
        type,
        signal: undefined,
        batchIndex: 0,
        input,
        meta,
        next: (options) =>
          runFrom(
            index + 1,
            options?.ctx ? { ...(ctx as object), ...options.ctx } : ctx,
            options && "input" in options ? options.input : input,
            options?.getRawInput ?? getRawInput,
          ),
      });
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker };
    }
  }

  return async (ctx, input) => {
    const result = await runFrom(0, ctx, undefined, async () => input);
    if (!result) {
      throw new TRPCError({
        code: "INTERNAL_SERVER_ERROR",
        message: "No result from middlewares - did you forget to `return next()`?",
      });
    }
    if (!result.ok) throw result.error;
    return result.data;
  };
}

/** The procedure's middlewares, its input and output validators made anew on its schemas, parsing synchronously. */
function validatorsRebuilt(def: RunnableProcedureDef, path: string): Middleware[] {
  const refuse = (why: string) => {
    throw new Error(`${path}: ${why}; the REST edge cannot run it as tRPC would (procedure-runner.ts)`);
  };
  if (def.experimental_caller) refuse("it has an experimental_caller");
  const inputValidators = def.middlewares.filter((m) => m._type === "input").length;
  const outputValidators = def.middlewares.filter((m) => m._type === "output").length;
  if (inputValidators !== def.inputs.length) refuse("its input validators do not match its input schemas");
  if (outputValidators !== (def.output === undefined ? 0 : 1))
    refuse("its output validator does not match its output schema");
  const schemas = def.output === undefined ? def.inputs : [...def.inputs, def.output];
  if (!schemas.every(isSchema)) refuse("a schema of it is not a zod schema");

  let inputs = 0;
  return def.middlewares.map((middleware) => {
    if (middleware._type === "input") return inputValidator(def.inputs[inputs++] as z.ZodType);
    if (middleware._type === "output") return outputValidator(def.output as z.ZodType);
    return middleware;
  });
}

/** tRPC's input validator: the raw input parsed, merged over an input an earlier validator parsed. */
function inputValidator(schema: z.ZodType): Middleware {
  return async (options) => {
    const raw = await options.getRawInput();
    let parsed: unknown;
    try {
      parsed = await parsedSyncFirst(schema, raw);
    } catch (cause) {
      throw new TRPCError({ code: "BAD_REQUEST", cause });
    }
    const input = isObject(options.input) && isObject(parsed) ? { ...options.input, ...parsed } : parsed;
    return options.next({ input });
  };
}

/** tRPC's output validator: a result's data parsed; a result that failed goes on as it is. */
function outputValidator(schema: z.ZodType): Middleware {
  return async ({ next }) => {
    const result = await next();
    if (!result.ok) return result;
    try {
      return { ...result, data: await parsedSyncFirst(schema, result.data) };
    } catch (cause) {
      throw new TRPCError({ message: "Output validation failed", code: "INTERNAL_SERVER_ERROR", cause });
    }
  };
}

const isSchema = (value: unknown): value is z.ZodType =>
  typeof (value as z.ZodType).parse === "function" && typeof (value as z.ZodType).parseAsync === "function";
