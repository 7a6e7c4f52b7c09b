/**
 * The REST edge's procedure runner against tRPC's own call of the same
 * procedures: the same results, the same errors (code, message, cause), and
 * the same options seen by every middleware and resolver.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { procedureRunnerOf, type RunnableProcedureDef } from "../src/procedure-runner.ts";

interface Context {
  user: string;
}

/** What each middleware and resolver was handed, in call order. */
let seen: unknown[] = [];
const look = (where: string, given: object) => {
  const options = given as Record<string, unknown>;
  seen.push({
    where,
    keys: Object.keys(options).sort(),
    ctx: options.ctx,
    input: options.input,
    type: options.type,
    path: options.path,
    meta: options.meta,
    signal: options.signal,
  });
};

const t = initTRPC.context<Context>().meta<{ name: string }>().create();

/** Like the services' own: looks, extends the context, and turns a failed result's message. */
const procedure = t.procedure.use(async (options) => {
  look("middleware", options);
  const result = await options.next({ ctx: { role: "admin" } });
  if (!result.ok) result.error.message = `wrapped: ${result.error.message}`;
  return result;
});

const item = z.object({ id: z.string(), count: z.number() });

const router = t.router({
  merged: procedure
    .meta({ name: "merged" })
    .input(z.object({ id: z.string() }))
    .input(z.object({ count: z.coerce.number().int() }))
    .output(item)
    .query((options) => {
      look("resolver", options);
      return { ...options.input, extra: "dropped by the output schema" };
    }),
  transformed: procedure.input(z.string().transform((text) => text.toUpperCase())).mutation((options) => {
    look("resolver", options);
    return options.input;
  }),
  awaited: procedure
    .input(z.object({ id: z.string() }).refine(async ({ id }) => id !== "taken", "that id is taken"))
    .query(({ input }) => input),
  failing: procedure.input(z.object({ how: z.string() })).mutation(({ input }) => {
    if (input.how === "trpc") throw new TRPCError({ code: "NOT_FOUND", message: "no such thing" });
    if (input.how === "plain") throw new Error("something broke");
    if (input.how === "output") return { id: 1 };
    return "fine";
  }),
  // A result of the wrong type, as a mistaken resolver would return it.
  checkedOutput: procedure
    .input(z.object({ how: z.string() }))
    .output(item)
    .mutation(() => ({ id: 1 }) as never),
  bare: t.procedure.query(() => "no middleware, no input"),
  // A middleware whose raw input cannot be read: not the input's fault, so not a 400.
  rawUnreadable: t.procedure
    .use(({ next }) =>
      next({
        getRawInput: async () => {
          throw new Error("raw input unreadable");
        },
      }),
    )
    .input(z.object({ id: z.string() }))
    .query(({ input }) => input),
  noResult: t.procedure.use(async () => undefined as never).query(() => "never reached"),
  plainFunction: t.procedure
    .use(function (this: unknown, options) {
      seen.push({ thisIsUndefined: this === undefined });
      return options.next();
    })
    .query(() => "called"),
});

type TrpcProcedure = ((options: object) => Promise<unknown>) & { _def: RunnableProcedureDef };
const procedures = router._def.procedures as unknown as Record<string, TrpcProcedure>;

/** tRPC's own call, as its callers make it, and the runner's, each with what it was handed. */
async function bothWays(path: string, input: unknown) {
  const fn = procedures[path]!;
  const ctx: Context = { user: "ada" };
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      (data) => ({ data }),
      (error: TRPCError) => ({
        error: {
          class: error.constructor.name,
          code: error.code,
          message: error.message,
          cause: error.cause && { class: error.cause.constructor.name, message: error.cause.message },
        },
      }),
    );
  seen = [];
  const trpc = await settle(
    fn({ path, getRawInput: async () => input, ctx, type: fn._def.type, signal: undefined, batchIndex: 0 }),
  );
  const trpcSeen = seen;
  seen = [];
  const runner = await settle(procedureRunnerOf(fn._def, path)(ctx, input));
  return { trpc: { ...trpc, seen: trpcSeen }, runner: { ...runner, seen } };
}

describe("procedureRunnerOf", () => {
  it.each<[string, unknown, string]>([
    ["merged", { id: "a", count: "3" }, "two input schemas merged, numbers coerced, the output parsed"],
    ["merged", { id: "a", count: "three" }, "the second input schema refusing"],
    ["merged", "not an object", "an input that is not an object"],
    ["transformed", "shout", "an input schema that transforms"],
    ["awaited", { id: "free" }, "an async refinement that passes"],
    ["awaited", { id: "taken" }, "an async refinement that refuses"],
    ["failing", { how: "trpc" }, "a TRPCError thrown by the resolver"],
    ["failing", { how: "plain" }, "another error thrown by the resolver"],
    ["failing", { how: "output" }, "no output schema: the result as it is"],
    ["checkedOutput", { how: "output" }, "a result its output schema refuses"],
    ["bare", undefined, "a procedure without middleware or input"],
    ["rawUnreadable", { id: "a" }, "a raw input that cannot be read"],
    ["noResult", undefined, "a middleware that returns nothing"],
    ["plainFunction", undefined, "a middleware that is a plain function"],
  ])("%s with %j (%s): as tRPC's own call", async (path, input) => {
    const { trpc, runner } = await bothWays(path, input);
    expect(runner).toEqual(trpc);
  });

  it("parses with the schema's synchronous parse, not its parseAsync", async () => {
    const schema = z.object({ id: z.string() });
    const parseAsync = schema.parseAsync.bind(schema);
    let asyncParses = 0;
    schema.parseAsync = (...args) => (asyncParses++, parseAsync(...args));
    const fn = t.procedure
      .input(schema)
      .output(schema)
      .query(({ input }) => input) as unknown as TrpcProcedure;
    await expect(procedureRunnerOf(fn._def, "sync")({}, { id: "a" })).resolves.toEqual({ id: "a" });
    expect(asyncParses).toBe(0);
    await fn({ path: "sync", getRawInput: async () => ({ id: "a" }), ctx: {}, type: "query", batchIndex: 0 });
    expect(asyncParses).toBe(2);
  });

  it("refuses a procedure whose shape it does not know, when the route table is built", () => {
    const fn = procedures.merged!;
    expect(() => procedureRunnerOf({ ...fn._def, experimental_caller: true }, "merged")).toThrow(
      /merged: it has an experimental_caller/,
    );
    const noValidators = { ...fn._def, middlewares: fn._def.middlewares.filter((m) => m._type !== "input") };
    expect(() => procedureRunnerOf(noValidators, "merged")).toThrow(/input validators do not match/);
  });
});
