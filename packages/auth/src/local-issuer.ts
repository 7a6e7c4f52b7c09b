import { randomUUID } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";

/** The development identity provider used when no real one is configured. */
export const LOCAL_ISSUER = "urn:resume-service:local-issuer";
export const LOCAL_AUDIENCE = "resume-api";
const ALG = "ES256";

interface StoredKey {
  privateJwk: JWK;
  publicJwk: JWK;
}

export interface LocalIssuer {
  issuer: string;
  audience: string;
  /** The JWKS document of the issuer's public key. */
  jwks: { keys: JWK[] };
  /** A signed token for `userId`, valid for `ttlSeconds` (default one hour; negative gives an expired token). */
  mintToken(userId: string, options?: { ttlSeconds?: number }): Promise<string>;
}

/**
 * Loads the local issuer's key pair from `<dataDir>/auth/local-issuer-key.json`,
 * generating it on first use. Concurrent first uses agree on one key: each
 * writes a temporary file and hard-links it into place, and the losers read the
 * winner's key.
 */
export async function loadLocalIssuer(options: {
  dataDir: string;
  issuer?: string;
  audience?: string;
}): Promise<LocalIssuer> {
  const issuer = options.issuer ?? LOCAL_ISSUER;
  const audience = options.audience ?? LOCAL_AUDIENCE;
  const stored = await readOrCreateKey(path.join(options.dataDir, "auth", "local-issuer-key.json"));
  const privateKey = await importJWK(stored.privateJwk, ALG);

  return {
    issuer,
    audience,
    jwks: { keys: [stored.publicJwk] },
    async mintToken(userId, { ttlSeconds = 3600 } = {}) {
      return new SignJWT({})
        .setProtectedHeader({ alg: ALG, kid: stored.publicJwk.kid!, typ: "JWT" })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(userId)
        .setIssuedAt()
        .setNotBefore("0s")
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(privateKey);
    },
  };
}

async function readOrCreateKey(file: string): Promise<StoredKey> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as StoredKey;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomUUID();
  const key: StoredKey = {
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: ALG, use: "sig" },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: ALG, use: "sig" },
  };
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${kid}`;
  await writeFile(temporary, JSON.stringify(key), { mode: 0o600 });
  try {
    await link(temporary, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return JSON.parse(await readFile(file, "utf8")) as StoredKey;
  } finally {
    await rm(temporary, { force: true });
  }
}
