import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  createTokenVerifier,
  IdentityProviderUnavailable,
  loadLocalIssuer,
  type LocalIssuer,
  type TokenVerifier,
} from "../src/index.ts";
import { createVerifiedTokenCache } from "../src/verified-token-cache.ts";

type Key = Parameters<SignJWT["sign"]>[0];
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const now = () => Math.floor(Date.now() / 1000);

let issuer: LocalIssuer;
let issuerKey: Key;
let kid: string;
let verify: TokenVerifier;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "auth-"));
  issuer = await loadLocalIssuer({ dataDir });
  const stored = JSON.parse(await readFile(path.join(dataDir, "auth", "local-issuer-key.json"), "utf8")) as {
    privateJwk: JWK;
  };
  issuerKey = await importJWK(stored.privateJwk, "ES256");
  kid = issuer.jwks.keys[0]!.kid!;
  verify = createTokenVerifier({
    issuer: issuer.issuer,
    audience: issuer.audience,
    key: { jwks: issuer.jwks },
  });
});

/** A token with the issuer's usual claims and header, any of them overridden or (as undefined) removed. */
function token(
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
  key: Key = issuerKey,
) {
  const payload = {
    iss: issuer.issuer,
    aud: issuer.audience,
    sub: "alice",
    iat: now(),
    exp: now() + 600,
    ...claims,
  };
  const protectedHeader = { alg: "ES256", kid, typ: "JWT", ...header };
  return new SignJWT(withoutUndefined(payload))
    .setProtectedHeader(withoutUndefined(protectedHeader) as { alg: string })
    .sign(key);
}

function withoutUndefined(record: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/** The reason `verify` gives for refusing the header. */
async function refusal(authorization: string | undefined) {
  const error = await verify(authorization).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the token was accepted").toBeInstanceOf(AuthenticationError);
  return (error as AuthenticationError).reason;
}

describe("createTokenVerifier", () => {
  it("accepts a good token from the local issuer and names its subject", async () => {
    expect(await verify(`Bearer ${await issuer.mintToken("alice")}`)).toEqual({ userId: "alice" });
  });

  it("refuses a request without a token", async () => {
    expect(await refusal(undefined)).toBe("missing_token");
    expect(await refusal("")).toBe("missing_token");
    expect(await refusal("Basic YWxpY2U6cHc=")).toBe("missing_token");
  });

  it("refuses a malformed token", async () => {
    expect(await refusal("Bearer not-a-jwt")).toBe("invalid_token");
    expect(await refusal("Bearer a.b.c")).toBe("invalid_token");
  });

  it('refuses alg "none"', async () => {
    const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64({ iss: issuer.issuer, aud: issuer.audience, sub: "alice", exp: now() + 600 })}.`;
    expect(await refusal(`Bearer ${unsigned}`)).toBe("invalid_token");
  });

  it("refuses HS256 signed with the public key as the HMAC secret", async () => {
    const secret = new TextEncoder().encode(JSON.stringify(issuer.jwks.keys[0]));
    expect(await refusal(`Bearer ${await token({}, { alg: "HS256" }, secret)}`)).toBe("invalid_token");
  });

  it("refuses a tampered payload", async () => {
    const [header, , signature] = (await token()).split(".");
    const forged = b64({ iss: issuer.issuer, aud: issuer.audience, sub: "mallory", exp: now() + 600 });
    expect(await refusal(`Bearer ${header}.${forged}.${signature}`)).toBe("invalid_token");
  });

  it("refuses a token signed by a foreign key that claims the issuer's kid", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    expect(await refusal(`Bearer ${await token({}, {}, privateKey)}`)).toBe("invalid_token");
  });

  it("refuses an unknown kid", async () => {
    expect(await refusal(`Bearer ${await token({}, { kid: "someone-else" })}`)).toBe("invalid_token");
  });

  it("refuses an expired token, allowing only a few seconds of clock skew", async () => {
    expect(await refusal(`Bearer ${await token({ exp: now() - 60 })}`)).toBe("expired_token");
    expect(await verify(`Bearer ${await token({ exp: now() - 2 })}`)).toEqual({ userId: "alice" });
  });

  it("refuses a token whose nbf is in the future", async () => {
    expect(await refusal(`Bearer ${await token({ nbf: now() + 60 })}`)).toBe("invalid_token");
  });

  it("refuses a token without exp", async () => {
    expect(await refusal(`Bearer ${await token({ exp: undefined })}`)).toBe("invalid_token");
  });

  it("refuses a wrong or missing audience", async () => {
    expect(await refusal(`Bearer ${await token({ aud: "another-api" })}`)).toBe("invalid_token");
    expect(await refusal(`Bearer ${await token({ aud: undefined })}`)).toBe("invalid_token");
  });

  it("refuses a wrong issuer", async () => {
    expect(await refusal(`Bearer ${await token({ iss: "https://evil.example" })}`)).toBe("invalid_token");
  });

  it("refuses a missing or empty subject", async () => {
    expect(await refusal(`Bearer ${await token({ sub: undefined })}`)).toBe("invalid_token");
    expect(await refusal(`Bearer ${await token({ sub: "" })}`)).toBe("invalid_token");
  });

  it("takes a subject of up to 255 characters, counted as the service's text is: an emoji is one", async () => {
    const emoji = "\u{1F642}";
    expect(await verify(`Bearer ${await token({ sub: emoji.repeat(255) })}`)).toEqual({
      userId: emoji.repeat(255),
    });
    expect(await refusal(`Bearer ${await token({ sub: emoji.repeat(256) })}`)).toBe("invalid_token");
    expect(await refusal(`Bearer ${await token({ sub: "a".repeat(256) })}`)).toBe("invalid_token");
  });

  it("refuses a subject that is not storable text: a NUL or a lone surrogate", async () => {
    for (const sub of ["nul\u0000inside", "\u0000", "half \ud800", "\udc00 half"]) {
      expect(await refusal(`Bearer ${await token({ sub })}`), JSON.stringify(sub)).toBe("invalid_token");
    }
    expect(await verify(`Bearer ${await token({ sub: "emoji 🙂 ok" })}`)).toEqual({ userId: "emoji 🙂 ok" });
  });

  it("refuses an unknown crit header", async () => {
    const withCrit = await new SignJWT({
      iss: issuer.issuer,
      aud: issuer.audience,
      sub: "alice",
      exp: now() + 600,
    })
      .setProtectedHeader({ alg: "ES256", kid, crit: ["urn:x"], "urn:x": 1 })
      .sign(issuerKey, { crit: { "urn:x": true } });
    expect(await refusal(`Bearer ${withCrit}`)).toBe("invalid_token");
  });
});

describe("verified tokens", () => {
  it("accepts a verified token again until its exp and then refuses it as expired, however often it was seen", async () => {
    let clockMs = Date.now();
    const verifyAt = createTokenVerifier(
      { issuer: issuer.issuer, audience: issuer.audience, key: { jwks: issuer.jwks } },
      { now: () => clockMs },
    );
    const exp = Math.floor(clockMs / 1000) + 60;
    const header = `Bearer ${await token({ exp })}`;
    expect(await verifyAt(header)).toEqual({ userId: "alice" });
    clockMs = exp * 1000 - 1_000;
    expect(await verifyAt(header)).toEqual({ userId: "alice" });
    clockMs = (exp + 60) * 1000;
    const error = await verifyAt(header).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).reason).toBe("expired_token");
  });

  it("never lets a verified token vouch for a tampered copy", async () => {
    const good = await token();
    expect(await verify(`Bearer ${good}`)).toEqual({ userId: "alice" });
    const [header, , signature] = good.split(".");
    const forged = b64({ iss: issuer.issuer, aud: issuer.audience, sub: "mallory", exp: now() + 600 });
    expect(await refusal(`Bearer ${header}.${forged}.${signature}`)).toBe("invalid_token");
  });
});

describe("verified token cache", () => {
  it("answers a token's user until its expiry, then forgets it", () => {
    const cache = createVerifiedTokenCache();
    cache.set("token-a", "alice", 10_000, 0);
    expect(cache.get("token-a", 9_999)).toBe("alice");
    expect(cache.get("token-b", 9_999)).toBeUndefined();
    expect(cache.get("token-a", 10_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps a long-lived token no longer than maxAgeMs after it was verified", () => {
    const cache = createVerifiedTokenCache({ maxAgeMs: 1_000 });
    cache.set("token-a", "alice", 3_600_000, 5_000);
    expect(cache.get("token-a", 5_999)).toBe("alice");
    expect(cache.get("token-a", 6_000)).toBeUndefined();
  });

  it("holds at most its limit, dropping the least recently used first", () => {
    const cache = createVerifiedTokenCache({ limit: 2 });
    cache.set("token-a", "alice", 10_000, 0);
    cache.set("token-b", "bob", 10_000, 0);
    expect(cache.get("token-a", 0)).toBe("alice");
    cache.set("token-c", "carol", 10_000, 0);
    expect(cache.size).toBe(2);
    expect(cache.get("token-b", 0)).toBeUndefined();
    expect(cache.get("token-a", 0)).toBe("alice");
    expect(cache.get("token-c", 0)).toBe("carol");
  });
});

describe("key sources", () => {
  it("verifies RS256 against a PEM public key", async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
    const pemVerify = createTokenVerifier({
      issuer: "https://idp.test",
      audience: "resume-api",
      key: { publicKeyPem: await exportSPKI(publicKey) },
    });
    const good = await new SignJWT({ sub: "bob" })
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer("https://idp.test")
      .setAudience("resume-api")
      .setExpirationTime("5m")
      .sign(privateKey);
    expect(await pemVerify(`Bearer ${good}`)).toEqual({ userId: "bob" });
  });

  describe("against a JWKS served over HTTP", () => {
    let server: Server;
    let jwksUrl: string;
    let key: Key;
    let jwk: JWK;

    beforeAll(async () => {
      const pair = await generateKeyPair("RS256", { extractable: true });
      key = pair.privateKey;
      jwk = { ...(await exportJWK(pair.publicKey)), kid: "remote-1", alg: "RS256" };
      server = createServer((_req, res) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ keys: [jwk] }));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("accepts a token signed by a key in the set and refuses one with an unknown kid", async () => {
      const remoteVerify = createTokenVerifier({
        issuer: "https://idp.test",
        audience: "resume-api",
        key: { jwksUrl },
      });
      const sign = (kidHeader: string) =>
        new SignJWT({ sub: "carol" })
          .setProtectedHeader({ alg: "RS256", kid: kidHeader })
          .setIssuer("https://idp.test")
          .setAudience("resume-api")
          .setExpirationTime("5m")
          .sign(key);
      expect(await remoteVerify(`Bearer ${await sign("remote-1")}`)).toEqual({ userId: "carol" });
      await expect(remoteVerify(`Bearer ${await sign("remote-2")}`)).rejects.toBeInstanceOf(
        AuthenticationError,
      );
    });

    it("says the provider is unavailable, not the token invalid, when its key set cannot be read", async () => {
      const token = await new SignJWT({ sub: "carol" })
        .setProtectedHeader({ alg: "RS256", kid: "remote-1" })
        .setIssuer("https://idp.test")
        .setAudience("resume-api")
        .setExpirationTime("5m")
        .sign(key);
      // A port nothing listens on (this server's, closed), and a provider that answers 503.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const failing = createServer((_req, res) => res.writeHead(503).end());
      await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
      try {
        for (const url of [
          `http://127.0.0.1:${closedPort}/.well-known/jwks.json`,
          `http://127.0.0.1:${(failing.address() as AddressInfo).port}/.well-known/jwks.json`,
        ]) {
          const verify = createTokenVerifier({
            issuer: "https://idp.test",
            audience: "resume-api",
            key: { jwksUrl: url },
          });
          await expect(verify(`Bearer ${token}`), url).rejects.toBeInstanceOf(IdentityProviderUnavailable);
        }
      } finally {
        await new Promise<void>((resolve) => failing.close(() => resolve()));
      }
    });
  });
});
