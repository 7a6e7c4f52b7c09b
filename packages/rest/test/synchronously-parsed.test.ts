/**
 * synchronouslyParsed: a procedure's schema that tRPC validates with the
 * schema's synchronous parse, with the same answers as before.
 */
import { initTRPC } from "@trpc/server";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { synchronouslyParsed } from "../src/index.ts";

const entry = () => z.object({ id: z.string(), tags: z.array(z.string()).default([]) }).meta({ id: "Entry" });

describe("synchronouslyParsed", () => {
  it("makes tRPC's validation of a procedure's output call the schema's parse", async () => {
    const output = synchronouslyParsed(entry());
    const parse = vi.spyOn(output, "parse");
    const t = initTRPC.create();
    const router = t.router({ get: t.procedure.output(output).query(() => ({ id: "a" })) });
    await expect(t.createCallerFactory(router)({}).get()).resolves.toEqual({ id: "a", tags: [] });
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it("answers what parseAsync answered: the parsed value, or the same issues", async () => {
    const plain = entry();
    const synchronous = synchronouslyParsed(entry());
    for (const value of [{ id: "a" }, { id: "a", tags: ["x"], extra: 1 }, { id: 1 }, { tags: "x" }, null]) {
      const expected = await plain.parseAsync(value).then(
        (parsed) => ({ parsed }),
        (error: z.ZodError) => ({ issues: error.issues }),
      );
      const got = await synchronous.parseAsync(value).then(
        (parsed) => ({ parsed }),
        (error: unknown) => ({
          issues: (error as z.ZodError).issues,
          isZodError: error instanceof z.ZodError,
        }),
      );
      expect(got).toEqual("issues" in expected ? { ...expected, isZodError: true } : expected);
    }
  });

  it("still waits for a schema that refines asynchronously", async () => {
    const checked = synchronouslyParsed(
      z.object({ id: z.string() }).refine(async ({ id }) => id !== "taken", "taken"),
    );
    await expect(checked.parseAsync({ id: "free" })).resolves.toEqual({ id: "free" });
    await expect(checked.parseAsync({ id: "taken" })).rejects.toThrow("taken");
  });

  it("keeps the schema's OpenAPI metadata (the same instance)", () => {
    const schema = entry();
    expect(synchronouslyParsed(schema)).toBe(schema);
    expect(z.globalRegistry.get(schema)?.id).toBe("Entry");
  });
});
