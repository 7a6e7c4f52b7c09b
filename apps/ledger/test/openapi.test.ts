import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLedgerServer, type LedgerServer } from "../../../test/ledger-server.ts";

let ledger: LedgerServer;

beforeAll(async () => {
  ledger = await startLedgerServer();
});

afterAll(async () => {
  await ledger?.stop();
});

describe("GET /openapi.json (no signature needed)", () => {
  it("is a valid OpenAPI 3.1 document declaring SigV4 in API Gateway's convention on every route", async () => {
    const response = await fetch(`${ledger.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      components: { securitySchemes: Record<string, Record<string, unknown>> };
      paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>>;
    };
    await SwaggerParser.validate(structuredClone(document) as never);
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.components.securitySchemes.sigv4).toMatchObject({
      type: "apiKey",
      name: "Authorization",
      in: "header",
      "x-amazon-apigateway-authtype": "awsSigv4",
    });
    const routes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        "POST /accounts",
        "GET /accounts",
        "GET /accounts/{id}",
        "PATCH /accounts/{id}",
        "GET /accounts/{id}/entries",
        "GET /accounts/{id}/balance",
        "GET /balances",
        "POST /transactions",
        "POST /transactions/batch",
        "GET /transactions/{id}",
        "POST /transactions/{id}/reversal",
        "POST /transactions/{id}/post",
        "POST /transactions/{id}/void",
        "GET /accounts/{id}/holds",
        "GET /transactions",
        "GET /events",
      ].sort(),
    );
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item)) {
        expect(operation.security).toEqual([{ sigv4: [] }]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["403", "500"]));
      }
    }
    expect(Object.keys(document.paths["/transactions"]!.post!.responses)).toEqual(
      expect.arrayContaining(["200", "201", "422"]),
    );
  });
});
