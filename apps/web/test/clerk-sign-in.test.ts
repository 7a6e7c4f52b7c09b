import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer, type WebServer } from "../../../test/web-server.ts";

/**
 * The web app with Clerk configured. Clerk's servers cannot be reached from
 * here (nor can its browser script, so its components are not run), so this
 * test plays the Clerk instance: it holds the instance's signing key, serves
 * its JWKS over HTTP, and signs session and JWT-template tokens the way Clerk
 * does. Everything on the app's side is real: the pages, their policy, and the
 * API's verifier fetching the JWKS.
 */
const FRONTEND_API = "clerk.resume.test";
const PUBLISHABLE_KEY = `pk_live_${Buffer.from(`${FRONTEND_API}$`).toString("base64")}`;
const AUDIENCE = "resume-api";

let web: WebServer;
let jwksServer: Server;
let issuer: string;
let signingKey: CryptoKey;
let publicJwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "ins_test", alg: "RS256", use: "sig" };
  jwksServer = createServer((request, response) => {
    const found = request.url === "/.well-known/jwks.json";
    response.writeHead(found ? 200 : 404, { "content-type": "application/json" });
    response.end(found ? JSON.stringify({ keys: [publicJwk] }) : "{}");
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;
  web = await startWebServer({
    NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    AUTH_ISSUER: issuer,
    AUTH_AUDIENCE: AUDIENCE,
  });
});

afterAll(async () => {
  await web?.stop();
  await new Promise((resolve) => jwksServer?.close(resolve));
});

/** A token as Clerk signs it: a session cookie (no audience) or a JWT-template token (with one). */
function clerkToken(userId: string, { audience }: { audience?: string } = {}) {
  const jwt = new SignJWT({ sid: "sess_test", ...(audience ? {} : { azp: web.url }) })
    .setProtectedHeader({ alg: "RS256", kid: publicJwk.kid!, typ: "JWT" })
    .setIssuer(issuer)
    .setSubject(userId)
    .setIssuedAt()
    .setNotBefore("0s")
    .setExpirationTime("2m");
  return (audience ? jwt.setAudience(audience) : jwt).sign(signingKey);
}

async function sessionCookies(userId: string) {
  return `__session=${await clerkToken(userId)}; __client_uat=${Math.floor(Date.now() / 1000) - 5}`;
}

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${web.url}${path}`, { headers, redirect: "manual" });

describe("with Clerk configured", () => {
  it("the sign-in page is Clerk's: no local form, and its policy lets Clerk's script and calls through", async () => {
    const response = await get("/sign-in");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain('name="user"');
    expect(html).not.toContain("Local development sign-in");
    // Clerk's provider is on the page, configured with this instance's key.
    expect(html).toContain(PUBLISHABLE_KEY);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(new RegExp(`script-src [^;]*https://${FRONTEND_API}`));
    expect(policy).toMatch(new RegExp(`connect-src [^;]*https://${FRONTEND_API}`));
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("turns the local sign-in off", async () => {
    const response = await fetch(`${web.url}/api/session`, {
      method: "POST",
      body: new URLSearchParams({ user: "mallory" }),
      redirect: "manual",
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("serves the editor without the local sign-in's account bar; Clerk's script decides who is signed in", async () => {
    const response = await get("/editor");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain("Signed in as");
    expect(response.headers.get("content-security-policy")).toMatch(
      new RegExp(`script-src [^;]*https://${FRONTEND_API}`),
    );
  });

  it("the editor's API takes the JWT-template token, not the session cookie", async () => {
    const userId = `user_clerk_${Date.now()}`;
    const bearer = { authorization: `Bearer ${await clerkToken(userId, { audience: AUDIENCE })}` };
    const put = await fetch(`${web.url}/me/profile`, {
      method: "PUT",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ name: "Clerk Person" }),
    });
    expect(put.status).toBe(200);

    const viaEditor = await get("/api/trpc/profile.get", bearer);
    expect(viaEditor.status).toBe(200);
    expect(((await viaEditor.json()) as { result: { data: { name: string } } }).result.data.name).toBe(
      "Clerk Person",
    );

    const cookieOnly = await get("/api/trpc/profile.get", { cookie: await sessionCookies(userId) });
    expect(cookieOnly.status).toBe(401);
  });
});
