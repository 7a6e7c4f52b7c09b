/**
 * A sign-in provider whose keys cannot be read (its JWKS URL refuses
 * connections): a bearer token cannot be checked, which is the service's
 * trouble, not the caller's. REST and the editor's tRPC answer 503 with
 * Retry-After, never 401 "the token is invalid" (which tells a client to
 * sign in again, and looks like every token forged).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpClient } from "../../../test/http-client.ts";
import { startResumeApi } from "../../../test/resume-api.ts";
import type { WebServer } from "../../../test/web-server.ts";

let web: WebServer;
let token: string;

beforeAll(async () => {
  // A port nothing listens on: this server's, once closed.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const issuer = "https://idp.test";
  const audience = "resume-api";
  web = await startResumeApi({
    verifier: { issuer, audience, key: { jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` } },
  });
  const { privateKey } = await generateKeyPair("RS256");
  token = await new SignJWT({ sub: "outage-user" })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(issuer)
    .setAudience(audience)
    .setExpirationTime("5m")
    .sign(privateKey);
});

afterAll(async () => {
  await web?.stop();
});

describe("the sign-in provider's keys cannot be read", () => {
  const UNAVAILABLE = {
    statusCode: 503,
    error: "SERVICE_UNAVAILABLE",
    message: "the sign-in provider could not be reached to check the token; try again shortly",
  };

  it("answers REST 503 with Retry-After, on a read, a write and the whole resume", async () => {
    const api = httpClient(web.url, { authorization: `Bearer ${token}` });
    for (const answer of [
      await api.get("/me/profile"),
      await api.put("/me/profile", { name: "Kept" }),
      await api.get("/me/resume?format=markdown"),
    ]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("2");
      expect(answer.body).toEqual(UNAVAILABLE);
    }
  });

  it("answers the editor's tRPC 503, not UNAUTHORIZED", async () => {
    const answer = await httpClient(web.url, { authorization: `Bearer ${token}` }).get(
      "/api/trpc/profile.get",
    );
    expect(answer.status).toBe(503);
    expect(JSON.stringify(answer.body)).toContain("the sign-in provider could not be reached");
  });

  it("still answers a request without a token 401", async () => {
    expect((await httpClient(web.url).get("/me/profile")).status).toBe(401);
  });
});
