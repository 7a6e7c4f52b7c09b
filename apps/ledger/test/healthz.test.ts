import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database } from "@app/db";
import { createLedgerServer } from "../src/server.ts";
import { capturedLogger } from "../../../test/captured-logger.ts";
import { freePort } from "../../../test/free-port.ts";

const open: { server: Server; db: Database }[] = [];

async function serve(connectionString: string): Promise<string> {
  const db = createDatabase({ connectionString });
  const { server } = createLedgerServer({
    db,
    credentials: new Map(),
    region: "us-east-1",
    logger: capturedLogger("ledger").logger,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push({ server, db });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const { server, db } of open.splice(0)) {
    server.close();
    await db.$disconnect();
  }
});

describe("ledger /healthz and /livez", () => {
  it("answers 200 when the database answers", async () => {
    const response = await fetch(`${await serve(inject("databaseUrl"))}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("answers 503 with the error body, quickly, when the database is unreachable", async () => {
    const nobody = `postgresql://postgres:x@127.0.0.1:${await freePort()}/app`;
    const started = Date.now();
    const response = await fetch(`${await serve(nobody)}/healthz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      statusCode: 503,
      error: "SERVICE_UNAVAILABLE",
      message: "the database is unreachable",
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(response.headers.get("retry-after")).toBe("2");
  });

  it("answers GET /livez with 200 without asking the database, even one that is unreachable", async () => {
    const nobody = `postgresql://postgres:x@127.0.0.1:${await freePort()}/app`;
    const response = await fetch(`${await serve(nobody)}/livez`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers HEAD of /healthz, /livez and /openapi.json unsigned, like GET without a body", async () => {
    const url = await serve(inject("databaseUrl"));
    for (const path of ["/healthz", "/livez", "/openapi.json"]) {
      const [get, head] = await Promise.all([
        fetch(`${url}${path}`),
        fetch(`${url}${path}`, { method: "HEAD" }),
      ]);
      expect(head.status, path).toBe(200);
      expect(head.headers.get("content-type"), path).toBe(get.headers.get("content-type"));
      expect(head.headers.get("content-length"), path).toBe(String((await get.arrayBuffer()).byteLength));
      expect(await head.text(), path).toBe("");
    }
  });

  it("answers any other path without a signature with 403 MissingAuthenticationToken, as API Gateway does", async () => {
    const response = await fetch(`${await serve(inject("databaseUrl"))}/nowhere`);
    expect(response.status).toBe(403);
    expect(response.headers.get("x-amzn-errortype")).toBe("MissingAuthenticationToken");
    expect(await response.json()).toMatchObject({ statusCode: 403, error: "MissingAuthenticationToken" });
  });
});
