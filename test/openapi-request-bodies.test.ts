import { describe, expect, it } from "vitest";
import { ledgerOpenApiDocument } from "@app/ledger";
import { resumeOpenApiDocument } from "@app/resume";

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean;
  description?: string;
}
interface Operation {
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
type Document = { paths?: Record<string, Record<string, Operation>>; components?: unknown };

/** Each operation with a JSON body: `METHOD /path`, the body's schema and the operation. */
function bodiesOf(document: Document) {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) => {
      const schema = operation.requestBody?.content["application/json"]?.schema;
      return schema ? [{ route: `${method.toUpperCase()} ${path}`, schema, operation }] : [];
    }),
  );
}

/** A schema, its `$ref` (`#/components/schemas/Name`) followed. */
function resolved(document: Document, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  return (document.components as { schemas: Record<string, Schema> }).schemas[name]!;
}

describe("the OpenAPI documents' request bodies say what the REST edge takes", () => {
  for (const [service, document] of [
    ["resume", resumeOpenApiDocument as Document],
    ["ledger", ledgerOpenApiDocument as Document],
  ] as const) {
    it(`${service}: every JSON object body refuses members it does not name, as the edge does (a 400)`, () => {
      const objects = bodiesOf(document).filter(({ schema }) => schema.properties);
      expect(objects.length).toBeGreaterThan(5);
      for (const { route, schema } of objects) expect(schema.additionalProperties, route).toBe(false);
    });
  }

  it("resume: a body may send back every field of the answer it replaces (GET, edit, PUT), the server's ignored", () => {
    const document = resumeOpenApiDocument as Document;
    const replaces = bodiesOf(document).filter(({ route }) => /^PUT \/me\/(?!resume$)/.test(route));
    expect(replaces.map(({ route }) => route)).toContain("PUT /me/skills/{id}");
    for (const { route, schema, operation } of replaces) {
      const answer = resolved(document, operation.responses["200"]!.content!["application/json"]!.schema);
      for (const field of Object.keys(answer.properties!))
        expect(Object.keys(schema.properties!), `${route}: ${field}`).toContain(field);
    }
    const skill = bodiesOf(document).find(({ route }) => route === "PUT /me/skills/{id}")!.schema;
    expect(skill.properties!.created_at!.description).toMatch(/^Ignored/);
    expect(skill.properties!.id).toMatchObject({
      format: "uuid",
      description: "The path's id, if sent again: the path's value counts.",
    });
  });

  it("ledger: a body may repeat the path's id, another one being a 400", () => {
    const reversal = bodiesOf(ledgerOpenApiDocument as Document).find(
      ({ route }) => route === "POST /transactions/{id}/reversal",
    )!.schema;
    expect(reversal.properties!.id!.description).toBe(
      "The path's id, if sent again: another value is a 400.",
    );
  });
});
