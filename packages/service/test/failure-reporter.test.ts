import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createFailureReporter } from "../src/failure-reporter.ts";
import { createLogger } from "../src/logger.ts";
import { runWithRequest } from "../src/request-context.ts";

/** A reporter whose log lines are kept in `lines`, and the database classes it counted. */
function reporter() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const counted: string[] = [];
  const metrics = { countDatabaseError: (errorClass: string) => counted.push(errorClass) };
  const failures = createFailureReporter(
    createLogger("test", { destination }),
    metrics as unknown as Parameters<typeof createFailureReporter>[1],
    (error) => ((error as Error).message === "db down" ? "connection" : null),
  );
  return { failures, lines, counted };
}

describe("failure reporter", () => {
  it("names the request by the id it is given, and counts a database failure by its class", () => {
    const { failures, lines, counted } = reporter();
    failures.report("/transactions", new Error("db down"), "request-1");
    failures.report("/accounts", new Error("a bug"));
    expect(lines).toEqual([
      expect.objectContaining({ level: "error", where: "/transactions", request_id: "request-1" }),
      expect.not.objectContaining({ request_id: expect.anything() }),
    ]);
    expect(counted).toEqual(["connection"]);
  });

  it("names the request of the context it runs in when given no id", () => {
    const { failures, lines } = reporter();
    runWithRequest({ id: "request-2", method: "GET", route: "/me/profile" }, () =>
      failures.report("/me/profile", new Error("a bug")),
    );
    expect(lines).toEqual([expect.objectContaining({ request_id: "request-2", where: "/me/profile" })]);
  });

  it("reports what a procedure answered 500 or 503 for, with the request's id, and nothing else", () => {
    const { failures, lines } = reporter();
    const failed = (code: string) =>
      Object.assign(new Error(code), { code, cause: new Error(`${code} cause`) });
    failures.onProcedureError(failed("INTERNAL_SERVER_ERROR"), "postTransaction", "request-3");
    failures.onProcedureError(failed("SERVICE_UNAVAILABLE"), "getAccount", "request-4");
    failures.onProcedureError(failed("BAD_REQUEST"), "postTransaction", "request-5");
    expect(
      lines.map((line) => [line.where, line.request_id, (line.err as { message: string }).message]),
    ).toEqual([
      ["postTransaction", "request-3", "INTERNAL_SERVER_ERROR cause"],
      ["getAccount", "request-4", "SERVICE_UNAVAILABLE cause"],
    ]);
  });
});
