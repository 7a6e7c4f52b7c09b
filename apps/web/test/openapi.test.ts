import { readFile } from "node:fs/promises";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS } from "@app/resume";
import { openApiTypes } from "../../../scripts/openapi-types.ts";
import { newUser } from "../../../test/tokens.ts";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";
import type { paths } from "./generated/resume-api.ts";

let web: WebServer;
let document: Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };

interface Operation {
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  responses: Record<
    string,
    { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }
  >;
}

beforeAll(async () => {
  web = await startWebServer();
  document = (await (await fetch(`${web.url}/openapi.json`)).json()) as typeof document;
});

afterAll(async () => {
  await web?.stop();
});

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, version 1.0.0, with the bearer scheme", async () => {
    await SwaggerParser.validate(structuredClone(document) as never);
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.info).toMatchObject({ version: "1.0.0" });
    expect(document.components).toMatchObject({
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
    });
  });

  it("declares every /me route, each secured, with the error body on every error response", () => {
    const expected = [
      "get /me/profile",
      "put /me/profile",
      "get /me/resume",
      "put /me/resume",
      "get /me/tokens",
      "post /me/tokens",
      "get /me/tokens/{id}",
      "delete /me/tokens/{id}",
      "get /me/versions",
      "post /me/versions",
      "get /me/versions/{id}",
      "put /me/versions/{id}",
      "delete /me/versions/{id}",
      "get /me/versions/{id}/resume",
      "get /me/versions/{id}/links",
      "post /me/versions/{id}/links",
      "patch /me/links/{id}",
      "delete /me/links/{id}",
      ...COLLECTIONS.flatMap((c) => [
        `get ${c.path}`,
        `post ${c.path}`,
        `get ${c.path}/{id}`,
        `put ${c.path}/{id}`,
        `delete ${c.path}/{id}`,
      ]),
    ];
    const declared = Object.entries(document.paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m} ${p}`),
    );
    expect(declared.sort()).toEqual(expected.sort());

    for (const [p, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method} ${p}`;
        expect(operation.security, where).toEqual([{ bearerAuth: [] }]);
        const errors = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
        expect(
          errors.map(([s]) => s),
          where,
        ).toEqual(expect.arrayContaining(["401", "429", "500"]));
        for (const [status, response] of errors) {
          expect(response.content?.["application/json"]?.schema, `${where} ${status}`).toEqual({
            $ref: "#/components/schemas/Error",
          });
        }
        if (method === "post") {
          expect(Object.keys(operation.responses)).toContain("201");
          expect(operation.responses["201"]?.headers).toHaveProperty("Location");
        }
      }
    }
    expect(document.paths["/me/resume"]?.get?.responses["200"]?.content).toHaveProperty("text/markdown");
  });

  it("lists the preconditions and the 412 on every conditional write, and the ETag on each answer that carries a version", () => {
    const operationOf = (route: string) => {
      const [method, template] = route.split(" ") as [string, string];
      return document.paths[template]![method]!;
    };
    const conditionalWrites = [
      "put /me/profile",
      "put /me/versions/{id}",
      "delete /me/versions/{id}",
      ...COLLECTIONS.flatMap((c) => [`put ${c.path}/{id}`, `delete ${c.path}/{id}`]),
    ];
    for (const route of conditionalWrites) {
      const operation = operationOf(route);
      const headers = (operation.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
      expect(headers, route).toEqual(["If-Match", "If-None-Match", "If-Unmodified-Since"]);
      expect(Object.keys(operation.responses), route).toContain("412");
    }
    const versionedAnswers = [
      "get /me/profile",
      "put /me/profile",
      "post /me/versions",
      "get /me/versions/{id}",
      "put /me/versions/{id}",
      ...COLLECTIONS.flatMap((c) => [`post ${c.path}`, `get ${c.path}/{id}`, `put ${c.path}/{id}`]),
    ];
    for (const route of versionedAnswers) {
      const success = route.startsWith("post ") ? "201" : "200";
      expect(operationOf(route).responses[success]?.headers, route).toHaveProperty("ETag");
    }
  });

  it("is what the committed client types were generated from (npm run openapi:types)", async () => {
    const committed = await readFile(path.join(import.meta.dirname, "generated", "resume-api.ts"), "utf8");
    expect(await openApiTypes(document)).toBe(committed);
  });
});

describe("a client generated from the document", () => {
  it("performs a full round trip", async () => {
    const client = createClient<paths>({
      baseUrl: web.url,
      headers: { authorization: (await newUser()).authorization },
    });

    const profile = await client.PUT("/me/profile", { body: { name: "Client Generated", links: {} } });
    expect(profile.response.status).toBe(200);
    expect(profile.data?.name).toBe("Client Generated");

    const created = await client.POST("/me/experience", {
      body: {
        organization: "OpenAPI Inc",
        title: "Tester",
        start_date: "2024-02-01",
        responsibilities: ["Round trips"],
      },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;

    const replaced = await client.PUT("/me/experience/{id}", {
      params: { path: { id } },
      body: { organization: "OpenAPI Inc", title: "Lead Tester", start_date: "2024-02-01" },
    });
    expect(replaced.data?.title).toBe("Lead Tester");
    expect(replaced.data?.responsibilities).toEqual([]);

    const fetched = await client.GET("/me/experience/{id}", { params: { path: { id } } });
    expect(fetched.data).toEqual(replaced.data);

    const invalid = await client.POST("/me/skills", { body: { name: "", category: "language" } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error).toMatchObject({
      statusCode: 400,
      error: "BAD_REQUEST",
      issues: [{ path: "name" }],
    });

    const deleted = await client.DELETE("/me/experience/{id}", { params: { path: { id } } });
    expect(deleted.data).toEqual({ statusCode: 200, message: expect.any(String) });

    const resume = await client.GET("/me/resume", { params: { query: { format: "json" } } });
    expect(resume.data).toMatchObject({ profile: { name: "Client Generated" }, experience: [] });
  });
});
