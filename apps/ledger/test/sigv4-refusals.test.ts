import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerClient } from "../../../test/ledger-client.ts";
import {
  FULL_KEY,
  READ_ONLY_KEY,
  REGION,
  startLedgerServer,
  type LedgerServer,
} from "../../../test/ledger-server.ts";
import { sendRaw } from "../../../test/raw-http.ts";

let ledger: LedgerServer;

beforeAll(async () => {
  ledger = await startLedgerServer();
});

afterAll(async () => {
  await ledger?.stop();
});

/** A create-account body whose name tells whether this very request was carried out. */
const accountBody = () =>
  JSON.stringify({ name: `refusal ${crypto.randomUUID()}`, type: "asset", currency: "USD" });

/** `yyyymmddThhmmssZ` for now plus `offsetMs`. */
function amzDate(offsetMs = 0): string {
  return new Date(Date.now() + offsetMs).toISOString().replace(/[-:]|\.\d{3}/g, "");
}

interface SignOptions {
  key?: { accessKeyId: string; secretAccessKey: string };
  region?: string;
  service?: string;
  datetime?: string;
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
}

/** A request signed by aws4fetch, as headers and body we may then tamper with. */
async function sign(options: SignOptions = {}) {
  const key = options.key ?? FULL_KEY;
  const client = new AwsClient({
    accessKeyId: key.accessKeyId,
    secretAccessKey: key.secretAccessKey,
    region: options.region ?? REGION,
    service: options.service ?? "execute-api",
  });
  const method = options.method ?? "POST";
  const body = method === "GET" ? undefined : (options.body ?? accountBody());
  const request = await client.sign(`${ledger.url}${options.path ?? "/accounts"}`, {
    method,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...options.headers },
    ...(body ? { body } : {}),
    aws: { datetime: options.datetime ?? amzDate() },
  });
  return { method, url: request.url, headers: Object.fromEntries(request.headers), body };
}

async function send(request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
}) {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body ?? null,
  });
  return {
    status: response.status,
    errorType: response.headers.get("x-amzn-errortype"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function accountNames(): Promise<string[]> {
  return (await ledgerClient(ledger.url).allAccounts()).map((a) => a.name);
}

async function expectRefused(
  request: Parameters<typeof send>[0],
  status: number,
  error: string,
  message?: RegExp,
) {
  const result = await send(request);
  expect(result.status).toBe(status);
  expect(result.errorType).toBe(error);
  expect(result.body).toEqual({ statusCode: status, error, message: expect.any(String) });
  if (message) expect(result.body.message).toMatch(message);
  if (request.body) expect(await accountNames()).not.toContain(JSON.parse(request.body).name);
}

describe("SigV4 refusals", () => {
  it("accepts the untampered request (the baseline of every case below)", async () => {
    expect((await send(await sign())).status).toBe(201);
  });

  it("refuses a request without Authorization: 403 MissingAuthenticationToken", async () => {
    await expectRefused(
      { method: "GET", url: `${ledger.url}/accounts`, headers: {} },
      403,
      "MissingAuthenticationToken",
    );
  });

  it("refuses an unknown access key: 403 InvalidAccessKeyId", async () => {
    await expectRefused(
      await sign({ key: { accessKeyId: "AKIAUNKNOWNKEY000001", secretAccessKey: "whatever-secret-123" } }),
      403,
      "InvalidAccessKeyId",
    );
  });

  it("refuses a wrong secret, region or service: 403 SignatureDoesNotMatch", async () => {
    await expectRefused(
      await sign({ key: { ...FULL_KEY, secretAccessKey: "not-the-secret-0123456789" } }),
      403,
      "SignatureDoesNotMatch",
    );
    await expectRefused(
      await sign({ region: "eu-west-1" }),
      403,
      "SignatureDoesNotMatch",
      /region us-east-1/,
    );
    await expectRefused(await sign({ service: "s3" }), 403, "SignatureDoesNotMatch", /service execute-api/);
  });

  it("refuses a date 6 minutes old or ahead (RequestTimeTooSkewed) and accepts one 4 minutes old", async () => {
    await expectRefused(await sign({ datetime: amzDate(-6 * 60_000) }), 403, "RequestTimeTooSkewed");
    await expectRefused(await sign({ datetime: amzDate(6 * 60_000) }), 403, "RequestTimeTooSkewed");
    expect((await send(await sign({ datetime: amzDate(-4 * 60_000) }))).status).toBe(201);
  });

  it("refuses x-amz-date changed after signing", async () => {
    const request = await sign({ datetime: amzDate(-60_000) });
    await expectRefused(
      { ...request, headers: { ...request.headers, "x-amz-date": amzDate() } },
      403,
      "SignatureDoesNotMatch",
    );
  });

  it("refuses a signature that does not cover host", async () => {
    const request = await sign();
    const authorization = request.headers.authorization!.replace(
      /SignedHeaders=[^,]+/,
      "SignedHeaders=content-type;x-amz-date",
    );
    await expectRefused(
      { ...request, headers: { ...request.headers, authorization } },
      403,
      "SignatureDoesNotMatch",
      /host must be a signed header/,
    );
  });

  it("refuses an Idempotency-Key sent unsigned: a copy of the request could carry another key and create a second account", async () => {
    const signed = await sign({ headers: { "idempotency-key": `signed-${crypto.randomUUID()}` } });
    expect((await send(signed)).status).toBe(201);
    const request = await sign();
    await expectRefused(
      { ...request, headers: { ...request.headers, "idempotency-key": `added-${crypto.randomUUID()}` } },
      403,
      "SignatureDoesNotMatch",
      /^idempotency-key is sent, so it must be a signed header$/,
    );
  });

  it("refuses an If-Match sent unsigned: a copy of a conditional PATCH could drop it and write over a later change", async () => {
    const id = await ledgerClient(ledger.url).account();
    const path = `/accounts/${id}`;
    // A name of its own: expectRefused looks for it among every account's, other files' too.
    const name = `renamed ${crypto.randomUUID()}`;
    const request = await sign({ method: "PATCH", path, body: JSON.stringify({ name }) });
    await expectRefused(
      { ...request, headers: { ...request.headers, "if-match": '"2026-01-01T00:00:00.000Z"' } },
      403,
      "SignatureDoesNotMatch",
      /^if-match is sent, so it must be a signed header$/,
    );
    expect((await ledgerClient(ledger.url).get(path)).body.name).not.toBe(name);
  });

  it("refuses the method, path, query, body or a signed header changed after signing", async () => {
    const id = await ledgerClient(ledger.url).account();
    const post = await sign();
    await expectRefused({ ...post, method: "PUT" }, 403, "SignatureDoesNotMatch");
    await expectRefused(
      { ...post, body: post.body!.replace("refusal", "tampered") },
      403,
      "SignatureDoesNotMatch",
    );
    const noted = await sign({ headers: { "x-request-note": "signed" } });
    expect(noted.headers.authorization).toContain("x-request-note");
    await expectRefused(
      { ...noted, headers: { ...noted.headers, "x-request-note": "changed" } },
      403,
      "SignatureDoesNotMatch",
    );

    const get = await sign({ method: "GET", path: `/accounts/${id}/entries?limit=5&offset=0` });
    expect((await send(get)).status).toBe(200);
    await expectRefused({ ...get, url: get.url.replace("limit=5", "limit=6") }, 403, "SignatureDoesNotMatch");
    await expectRefused(
      { ...get, url: get.url.replace(`/accounts/${id}/entries`, `/accounts/${id}/balance`) },
      403,
      "SignatureDoesNotMatch",
    );

    // A plus signed as %2B, sent as `+`, would be read as a space: another filter than the one signed.
    const plus = await sign({ method: "GET", path: "/transactions?metadata%5Bemail%5D=a%2Btag%40x.com" });
    expect((await send(plus)).status).toBe(200);
    await expectRefused({ ...plus, url: plus.url.replace("%2B", "+") }, 403, "SignatureDoesNotMatch");
  });

  it("refuses x-amz-content-sha256 that does not match the body, and UNSIGNED-PAYLOAD", async () => {
    const request = await sign();
    await expectRefused(
      { ...request, headers: { ...request.headers, "x-amz-content-sha256": "0".repeat(64) } },
      403,
      "SignatureDoesNotMatch",
      /does not match the body/,
    );
    await expectRefused(
      { ...request, headers: { ...request.headers, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" } },
      403,
      "SignatureDoesNotMatch",
      /UNSIGNED-PAYLOAD/,
    );
  });

  it("refuses presigned URLs", async () => {
    const client = new AwsClient({
      accessKeyId: FULL_KEY.accessKeyId,
      secretAccessKey: FULL_KEY.secretAccessKey,
      region: REGION,
      service: "execute-api",
    });
    const presigned = await client.sign(`${ledger.url}/accounts`, {
      method: "GET",
      aws: { signQuery: true },
    });
    await expectRefused(
      { method: "GET", url: presigned.url, headers: {} },
      403,
      "MissingAuthenticationToken",
      /presigned/,
    );
  });

  it("answers 400 AuthorizationHeaderMalformed to an Authorization header it cannot read", async () => {
    const request = await sign();
    for (const authorization of [
      "AWS4-HMAC-SHA256 garbage",
      "Bearer abc.def.ghi",
      request.headers.authorization!.replace(/, Signature=[0-9a-f]+/, ""),
      request.headers.authorization!.replace(/Credential=[^,]+/, "Credential=AKIA/20260101/us-east-1"),
    ]) {
      await expectRefused(
        { ...request, headers: { ...request.headers, authorization } },
        400,
        "AuthorizationHeaderMalformed",
      );
    }
    const { ["x-amz-date"]: _dropped, ...withoutDate } = request.headers;
    await expectRefused(
      { ...request, headers: withoutDate },
      400,
      "AuthorizationHeaderMalformed",
      /x-amz-date/,
    );
  });

  it("answers 400 AuthorizationHeaderMalformed to a field it does not know or one given twice", async () => {
    const request = await sign();
    const signed = request.headers.authorization!;
    const signature = /Signature=([0-9a-f]{64})/.exec(signed)![1]!;
    for (const authorization of [
      `${signed}, Extra=1`,
      signed.replace("Credential=", "Note=hello, Credential="),
      signed.replace("Credential=", "credential="),
      `${signed}, Signature=${signature}`,
      signed.replace("SignedHeaders=", "SignedHeaders=host, SignedHeaders="),
      // Two headers in one line: what a repeated Authorization becomes when joined.
      `${signed}, ${signed}`,
    ]) {
      await expectRefused(
        { ...request, headers: { ...request.headers, authorization } },
        400,
        "AuthorizationHeaderMalformed",
        /malformed Authorization header/,
      );
    }
  });

  it("answers 400 AuthorizationHeaderMalformed to Authorization sent as two lines", async () => {
    // fetch joins repeated lines into one, so these requests are written by hand.
    const request = await sign();
    const other = (await sign()).headers.authorization!;
    for (const second of [request.headers.authorization!, other]) {
      const answer = await sendRaw(ledger.url, {
        requestLine: "POST /accounts HTTP/1.1",
        headers: [...Object.entries(request.headers), ["Authorization", second]],
        body: request.body!,
      });
      expect(answer.status, answer.body).toBe(400);
      expect(answer.headers.get("x-amzn-errortype")).toBe("AuthorizationHeaderMalformed");
      expect(JSON.parse(answer.body)).toEqual({
        statusCode: 400,
        error: "AuthorizationHeaderMalformed",
        message: expect.stringMatching(/one Authorization header/),
      });
    }
    expect(await accountNames()).not.toContain(JSON.parse(request.body!).name);
    // The same request with its one line is carried out.
    expect((await send(request)).status).toBe(201);
  });

  it("refuses an action the key does not hold: 403 AccessDenied; what it holds works", async () => {
    await expectRefused(await sign({ key: READ_ONLY_KEY }), 403, "AccessDenied", /ledger:CreateAccount/);
    const reader = ledgerClient(ledger.url, READ_ONLY_KEY);
    expect((await reader.get("/accounts")).status).toBe(200);
    const post = await reader.post("/transactions", { idempotency_key: "x", entries: [] });
    expect(post.status).toBe(403);
    expect(post.body).toMatchObject({ error: "AccessDenied" });
  });

  it("refuses an action the key does not hold before reading its body: 403 for any body, not its 400 or 415", async () => {
    for (const [body, contentType] of [
      ["{not json", "application/json"],
      ["[1, 2]", "application/json"],
      [JSON.stringify(accountBody()), "text/plain"],
    ] as const) {
      const request = await sign({ key: READ_ONLY_KEY, body, headers: { "content-type": contentType } });
      const result = await send(request);
      expect(result.status, `${contentType} ${body}`).toBe(403);
      expect(result.errorType).toBe("AccessDenied");
      expect(result.body).toEqual({
        statusCode: 403,
        error: "AccessDenied",
        message: expect.stringMatching(/may not perform ledger:CreateAccount/),
      });
    }
    // A key that holds the action gets the body's own refusal.
    const malformed = await send(await sign({ body: "{not json" }));
    expect([malformed.status, malformed.body.message]).toEqual([400, "the body is not valid JSON"]);
  });
});
