/**
 * The REST handler on a small router of its own: routing, the checks before a
 * procedure runs, the one error body, and what a procedure says about its
 * response. Requests are handed to the handler as a server would.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  buildOpenApiDocument,
  createResponseControl,
  createRestHandler,
  DomainError,
  formatTrpcError,
  parseRequestTarget,
  type ResponseControl,
  type RestRequest,
  type ServiceMeta,
} from "../src/index.ts";

interface Context {
  response: ResponseControl;
  user: string;
}

const t = initTRPC.context<Context>().meta<ServiceMeta>().create({ errorFormatter: formatTrpcError });
const note = z.object({ id: z.string(), text: z.string(), stars: z.number() });

const router = t.router({
  list: t.procedure
    .meta({ openapi: { method: "GET", path: "/notes", tags: ["notes"], description: "List." } })
    .input(z.object({ limit: z.number().int().min(1).default(10) }))
    .output(z.object({ limit: z.number(), user: z.string() }))
    .query(({ ctx, input }) => ({ limit: input.limit, user: ctx.user })),
  create: t.procedure
    .meta({
      openapi: { method: "POST", path: "/notes", tags: ["notes"], description: "Create." },
      rest: { successStatus: 201, otherSuccess: { 200: "A replay." } },
    })
    .input(z.strictObject({ text: z.string().min(1), stars: z.number() }))
    .output(note)
    .mutation(({ ctx, input }) => {
      // The route declares 201; a replay answers the other status it declares, a mistake one it does not.
      if (input.text === "replay") ctx.response.status = 200;
      if (input.text === "declared again") ctx.response.status = 201;
      if (input.text === "undeclared") ctx.response.status = 202;
      ctx.response.headers.set("Location", "/notes/n1");
      return { id: "n1", ...input };
    }),
  get: t.procedure
    .meta({ openapi: { method: "GET", path: "/notes/{id}", tags: ["notes"], description: "Get." } })
    .input(z.object({ id: z.string() }))
    .output(note)
    .query(({ input }) => {
      if (input.id === "gone") throw new TRPCError({ code: "NOT_FOUND", message: "no such note" });
      if (input.id === "locked") throw new DomainError(422, "the note is locked", { error: "NOTE_LOCKED" });
      if (input.id === "broken") throw new Error("connection string postgres://secret@db leaked?");
      return { id: input.id, text: "hi", stars: 1 };
    }),
  markdown: t.procedure
    .meta({
      openapi: { method: "GET", path: "/notes/{id}/markdown", tags: ["notes"], description: "Markdown." },
    })
    .input(z.object({ id: z.string() }))
    .output(z.string())
    .query(({ ctx, input }) => {
      ctx.response.headers.set("Content-Type", "text/markdown; charset=utf-8");
      return `# Note ${input.id}\n\n"quoted" \\ text\n`;
    }),
});

const document = buildOpenApiDocument(router, {
  title: "notes",
  version: "1.0.0",
  description: "test",
  license: { name: "test" },
  contact: { name: "test" },
  securitySchemes: {},
  commonErrors: {},
});
const rest = createRestHandler({ router, document, maxBodyBytes: 100 });
const context = async (): Promise<Context> => ({ response: createResponseControl(), user: "ada" });

function request(
  method: string,
  target: string,
  body: string | Buffer = "",
  contentType = "application/json",
): RestRequest {
  const headers = new Headers(body.length > 0 || method === "POST" ? { "content-type": contentType } : {});
  return { method, target: parseRequestTarget(target), headers, body: Buffer.from(body) };
}

const json = (body: string | Buffer) => JSON.parse(body.toString()) as Record<string, unknown>;

describe("REST handler", () => {
  it("routes by the document's paths: 404 for an unknown path, 405 with Allow for a known path's other method", async () => {
    const missing = await rest.handle(request("GET", "/nowhere"), { context });
    expect(missing.status).toBe(404);
    expect(json(missing.body)).toEqual({
      statusCode: 404,
      error: "NOT_FOUND",
      message: "no route for /nowhere",
    });

    const wrongMethod = await rest.handle(request("DELETE", "/notes/n1"), { context });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("GET, HEAD");
    expect(json(wrongMethod.body)).toMatchObject({ statusCode: 405, error: "METHOD_NOT_ALLOWED" });
  });

  it("builds no context for a request it refuses before the procedure", async () => {
    let built = 0;
    const counting = async () => {
      built += 1;
      return context();
    };
    await rest.handle(request("GET", "/nowhere"), { context: counting });
    await rest.handle(request("POST", "/notes", "text", "text/plain"), { context: counting });
    expect(built).toBe(0);
    await rest.handle(request("GET", "/notes"), { context: counting });
    expect(built).toBe(1);
  });

  it("answers 415 for a body that is not JSON and 413 for one past the limit, read only once the route is right", async () => {
    const notJson = await rest.handle(request("POST", "/notes", "text=1", "text/plain"), { context });
    expect(notJson.status).toBe(415);
    expect(json(notJson.body)).toMatchObject({ statusCode: 415, error: "UNSUPPORTED_MEDIA_TYPE" });

    let reads = 0;
    const tooLarge = await rest.handle(request("POST", "/notes"), {
      context,
      readBody: async (limit) => {
        reads += 1;
        expect(limit).toBe(100);
        return null;
      },
    });
    expect(tooLarge.status).toBe(413);
    expect(json(tooLarge.body)).toEqual({
      statusCode: 413,
      error: "PAYLOAD_TOO_LARGE",
      message: "the body is larger than 100 bytes",
    });
    expect(reads).toBe(1);
  });

  it("refuses a body that is not UTF-8 (400) or is said to be in another charset (415), and reads one that says UTF-8", async () => {
    // "Café" in Latin-1: E9 alone is no UTF-8; decoded loosely it would be stored as "Caf\uFFFD".
    const latin1 = Buffer.from('{"text":"Caf\u00e9","stars":1}', "latin1");
    const notUtf8 = await rest.handle(request("POST", "/notes", latin1), { context });
    expect(notUtf8.status).toBe(400);
    expect(json(notUtf8.body)).toEqual({
      statusCode: 400,
      error: "BAD_REQUEST",
      message: "the body is not UTF-8, as JSON must be",
    });
    const late = await rest.handle(request("POST", "/notes"), { context, readBody: async () => latin1 });
    expect(late.status).toBe(400);

    const said = await rest.handle(
      request("POST", "/notes", '{"text":"Cafe","stars":1}', 'application/json; charset="ISO-8859-1"'),
      { context },
    );
    expect(said.status).toBe(415);
    expect(json(said.body)).toMatchObject({ message: "the body must be JSON in UTF-8, not iso-8859-1" });
    // Said twice: the second is as much the sender's word as the first.
    const saidAgain = await rest.handle(
      request(
        "POST",
        "/notes",
        '{"text":"Cafe","stars":1}',
        "application/json; charset=utf-8; charset=latin1",
      ),
      { context },
    );
    expect([saidAgain.status, json(saidAgain.body).message]).toEqual([
      415,
      "the body must be JSON in UTF-8, not latin1",
    ]);

    for (const contentType of [
      "application/json; charset=utf-8",
      "application/json;charset=UTF8",
      "application/json; charset=utf-8; charset=utf-8",
    ]) {
      const utf8 = await rest.handle(request("POST", "/notes", '{"text":"Café","stars":1}', contentType), {
        context,
      });
      expect(utf8.status, contentType).toBe(201);
      expect(json(utf8.body), contentType).toMatchObject({ text: "Café" });
    }
  });

  it("refuses a query parameter given twice, or not percent-encoded UTF-8, naming it", async () => {
    const issuesOf = async (query: string) => {
      const answer = await rest.handle(request("GET", `/notes?${query}`), { context });
      expect(answer.status, query).toBe(400);
      return json(answer.body).issues;
    };
    expect(await issuesOf("limit=5&limit=6")).toEqual([
      { path: "limit", message: "is given more than once: send it once" },
    ]);
    for (const query of ["limit=%FF", "limit=%ZZ", "limit=%ED%A0%80"]) {
      expect(await issuesOf(query), query).toEqual([
        { path: "limit", message: "is not percent-encoded UTF-8" },
      ]);
    }
    const encoded = await rest.handle(request("GET", "/notes?limit=%35"), { context });
    expect(json(encoded.body)).toEqual({ limit: 5, user: "ada" });
    // What the route does not take (a cache buster) is ignored, sent twice or badly encoded too.
    const buster = await rest.handle(request("GET", "/notes?_=1&_=2&v=%ZZ&limit=3"), { context });
    expect([buster.status, json(buster.body)]).toEqual([200, { limit: 3, user: "ada" }]);
  });

  it("answers a procedure's status and headers (201 and Location) with its JSON", async () => {
    const created = await rest.handle(request("POST", "/notes", '{"text":"hi","stars":3}'), { context });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe("/notes/n1");
    expect(created.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(json(created.body)).toEqual({ id: "n1", text: "hi", stars: 3 });
  });

  it("answers the success status the route declares, another it declares when the procedure says so, and refuses any other as a 500", async () => {
    const replay = await rest.handle(request("POST", "/notes", '{"text":"replay","stars":3}'), { context });
    expect(replay.status).toBe(200);

    const reported: unknown[] = [];
    const logging = createRestHandler({
      router,
      document,
      maxBodyBytes: 100,
      onError: (e) => reported.push(e),
    });
    for (const text of ["declared again", "undeclared"]) {
      const mistaken = await logging.handle(request("POST", "/notes", JSON.stringify({ text, stars: 3 })), {
        context,
      });
      expect(mistaken.status, text).toBe(500);
      expect(json(mistaken.body)).toMatchObject({ statusCode: 500, message: "internal error" });
    }
    expect(reported.map((e) => (e as Error).message)).toEqual([
      "create set status 201; its route declares 201 and, besides, 200",
      "create set status 202; its route declares 201 and, besides, 200",
    ]);
  });

  it("reads a body that the server had not read yet", async () => {
    const created = await rest.handle(request("POST", "/notes"), {
      context,
      readBody: async () => Buffer.from('{"text":"late","stars":1}'),
    });
    expect(json(created.body)).toEqual({ id: "n1", text: "late", stars: 1 });
  });

  it("sends a string under the procedure's own Content-Type as it is, not JSON-encoded", async () => {
    const markdown = await rest.handle(request("GET", "/notes/n1/markdown"), { context });
    expect(markdown.status).toBe(200);
    expect(markdown.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(markdown.body).toBe('# Note n1\n\n"quoted" \\ text\n');
  });

  it("answers every failure with the one error body: validation issues, malformed JSON, domain codes, not found", async () => {
    const invalid = await rest.handle(request("POST", "/notes", '{"text":"","stars":1,"extra":true}'), {
      context,
    });
    expect(invalid.status).toBe(400);
    expect(json(invalid.body)).toEqual({
      statusCode: 400,
      error: "BAD_REQUEST",
      message: expect.stringContaining("invalid request"),
      issues: expect.arrayContaining([
        { path: "text", message: expect.any(String) },
        { path: "extra", message: "unknown field" },
      ]),
    });

    const malformed = await rest.handle(request("POST", "/notes", '{"text":'), { context });
    expect(malformed.status).toBe(400);
    expect(json(malformed.body)).toEqual({
      statusCode: 400,
      error: "BAD_REQUEST",
      message: "the body is not valid JSON",
    });

    // Numbers JSON parsing rounded: named at their paths, the first 100 of them.
    const rounded = await rest.handle(
      request(
        "POST",
        "/notes",
        `{"text":"x","stars":3.0000000000000001,"more":[${Array(150).fill("1e-400")}]}`,
      ),
      { context },
    );
    const { issues } = json(rounded.body) as { issues: { path: string; message: string }[] };
    expect([rounded.status, issues.length]).toEqual([400, 101]);
    expect(issues[0]).toEqual({
      path: "stars",
      message: "3.0000000000000001 reads as 3 in JSON: send a number a double holds exactly",
    });
    expect(issues[100]).toEqual({ path: "", message: "and 51 more such numbers" });

    // A member given twice: named at its second mention, not one of its values kept in silence.
    const twice = await rest.handle(
      request("POST", "/notes", `{"text":"x","stars":1,"text":"y","tags":[{"a":1,"b":2,"a":3}]}`),
      { context },
    );
    expect([twice.status, json(twice.body)]).toEqual([
      400,
      {
        statusCode: 400,
        error: "BAD_REQUEST",
        message: expect.stringContaining("invalid request"),
        issues: [
          { path: "tags.0.a", message: "is given more than once: send it once" },
          { path: "text", message: "is given more than once: send it once" },
        ],
      },
    ]);
    const manyTimes = await rest.handle(
      request(
        "POST",
        "/notes",
        `{"text":"x",${Array.from({ length: 150 }, (_, i) => `"k${i}":1,"k${i}":1`).join(",")}}`,
      ),
      { context },
    );
    const repeated = (json(manyTimes.body) as { issues: { path: string; message: string }[] }).issues;
    expect([manyTimes.status, repeated.length, repeated[100]]).toEqual([
      400,
      101,
      { path: "", message: "and 50 more such members" },
    ]);

    const locked = await rest.handle(request("GET", "/notes/locked"), { context });
    expect(locked.status).toBe(422);
    expect(json(locked.body)).toEqual({
      statusCode: 422,
      error: "NOTE_LOCKED",
      message: "the note is locked",
    });

    const gone = await rest.handle(request("GET", "/notes/gone"), { context });
    expect(gone.status).toBe(404);
    expect(json(gone.body)).toEqual({ statusCode: 404, error: "NOT_FOUND", message: "no such note" });
  });

  it("answers an unexpected error as a 500 that says nothing of it, and reports it to onError with its request's id", async () => {
    const reported: unknown[][] = [];
    const logging = createRestHandler({
      router,
      document,
      maxBodyBytes: 100,
      onError: (...report) => reported.push(report),
    });
    const broken = await logging.handle(request("GET", "/notes/broken"), { context, requestId: "request-7" });
    expect(broken.status).toBe(500);
    expect(json(broken.body)).toEqual({
      statusCode: 500,
      error: "INTERNAL_SERVER_ERROR",
      message: "internal error",
    });
    expect(broken.body).not.toContain("secret");
    expect(reported).toEqual([[expect.any(Error), expect.any(String), "request-7"]]);
  });

  it("coerces query values to numbers but never JSON body values", async () => {
    const listed = await rest.handle(request("GET", "/notes?limit=7"), { context });
    expect(json(listed.body)).toEqual({ limit: 7, user: "ada" });

    const stringNumber = await rest.handle(request("POST", "/notes", '{"text":"hi","stars":"5"}'), {
      context,
    });
    expect(stringNumber.status).toBe(400);
    expect(json(stringNumber.body).issues).toEqual([{ path: "stars", message: expect.any(String) }]);
  });
});
