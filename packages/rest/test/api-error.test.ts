/**
 * apiErrorOf, the one map from a failure to the error body: a schema's issues
 * are the client's to read only when its input failed (a 400), never when the
 * service's own answer failed its schema (a 500 that says no more than
 * "internal error").
 */
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiErrorOf } from "../src/api-error.ts";

const failureOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("the value was expected to fail");
  return parsed.error;
};

const answer = z.object({ id: z.string(), name: z.string().nullable() });

describe("apiErrorOf", () => {
  it("answers an input that failed its schema 400, with each issue at its path", () => {
    const cause = failureOf(answer, { id: 7, name: null });
    expect(apiErrorOf(new TRPCError({ code: "BAD_REQUEST", cause }), { id: 7, name: null })).toEqual({
      status: 400,
      headers: {},
      body: {
        statusCode: 400,
        error: "BAD_REQUEST",
        message: expect.stringMatching(/^invalid request: id: /),
        issues: [{ path: "id", message: expect.any(String) }],
      },
    });
  });

  it("answers an answer that failed its schema 500 'internal error', naming none of its fields", () => {
    const cause = failureOf(answer, { id: "x" });
    const error = new TRPCError({
      code: "INTERNAL_SERVER_ERROR",
      message: "Output validation failed",
      cause,
    });
    expect(apiErrorOf(error)).toEqual({
      status: 500,
      headers: {},
      body: { statusCode: 500, error: "INTERNAL_SERVER_ERROR", message: "internal error" },
    });
  });
});
