import { randomUUID } from "node:crypto";
import { loadLocalIssuer } from "@app/auth";
import { env } from "../scripts/env.ts";

const issuer = loadLocalIssuer({ dataDir: env.DATA_DIR });

/** A bearer token of the local issuer, the one the web app under test trusts. */
export async function tokenFor(userId: string, ttlSeconds = 600): Promise<string> {
  return (await issuer).mintToken(userId, { ttlSeconds });
}

/** A fresh user id and the Authorization header that signs in as them. */
export async function newUser(): Promise<{ userId: string; authorization: string }> {
  const userId = `user-${randomUUID()}`;
  return { userId, authorization: `Bearer ${await tokenFor(userId)}` };
}
