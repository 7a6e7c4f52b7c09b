import { createHash, randomBytes, randomUUID } from "node:crypto";
import { inTransaction, isoTimestampSql, queryRows, type Database } from "@app/db";
import { DomainError } from "@app/rest/errors";
import type { AccessToken, AccessTokenInput, TokenScope } from "../schemas/access-token.ts";
import { advisoryXactLock } from "./sql.ts";

/** Every personal access token starts so: a bearer token that does not is a JWT. */
export const ACCESS_TOKEN_PREFIX = "rsm_";
/** Tokens one person may hold at once; the next create answers 409. */
export const ACCESS_TOKENS_PER_PERSON = 50;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

const TOKEN_JSON = `json_build_object(
  'id', t.id,
  'name', t.name,
  'scopes', t.scopes,
  'created_at', ${isoTimestampSql("t.created_at")},
  'expires_at', ${isoTimestampSql("t.expires_at")},
  'last_used_at', ${isoTimestampSql("t.last_used_at")})`;

const notFound = () => new DomainError(404, "no access token with that id");

/** Makes a token (`rsm_` and 32 random bytes, base64url); only its SHA-256 is stored. */
export async function createAccessToken(
  db: Database,
  userId: string,
  input: AccessTokenInput,
): Promise<AccessToken & { token: string }> {
  const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  // The lock makes the count and the insert one step, so concurrent creates cannot pass the cap.
  const inserted = await inTransaction(db, async (tx) => {
    await tx.query(...advisoryXactLock(`access_tokens:${userId}`));
    return tx.query<{ token: AccessToken }>(
      `INSERT INTO resume.access_tokens AS t (id, user_id, name, token_hash, scopes, expires_at)
       SELECT $1::uuid, $2, $3, decode($4, 'hex'), $5::text[], now() + make_interval(days => $6::int)
        WHERE (SELECT count(*) FROM resume.access_tokens WHERE user_id = $2) < ${ACCESS_TOKENS_PER_PERSON}
       RETURNING ${TOKEN_JSON} AS token`,
      randomUUID(),
      userId,
      input.name,
      hashOf(token),
      input.scopes,
      input.expires_in_days,
    );
  });
  if (!inserted[0]) {
    throw new DomainError(409, `at most ${ACCESS_TOKENS_PER_PERSON} access tokens; revoke one first`);
  }
  return { ...inserted[0].token, token };
}

/** The person's tokens, newest first; expired ones stay listed until revoked. */
export async function listAccessTokens(db: Database, userId: string): Promise<AccessToken[]> {
  const [row] = await queryRows<{ items: AccessToken[] }>(
    db,
    `SELECT coalesce(json_agg(${TOKEN_JSON} ORDER BY t.created_at DESC, t.id), '[]'::json) AS items
       FROM resume.access_tokens t WHERE t.user_id = $1`,
    userId,
  );
  return row!.items;
}

export async function getAccessToken(db: Database, userId: string, id: string): Promise<AccessToken> {
  const [row] = await queryRows<{ token: AccessToken }>(
    db,
    `SELECT ${TOKEN_JSON} AS token FROM resume.access_tokens t WHERE t.id = $1::uuid AND t.user_id = $2`,
    id,
    userId,
  );
  if (!row) throw notFound();
  return row.token;
}

/** Revokes a token: its row goes, so the next request with it is refused. */
export async function deleteAccessToken(db: Database, userId: string, id: string): Promise<void> {
  const deleted = await queryRows(
    db,
    `DELETE FROM resume.access_tokens WHERE id = $1::uuid AND user_id = $2 RETURNING true`,
    id,
    userId,
  );
  if (deleted.length === 0) throw notFound();
}

/** What a presented token grants, or why it grants nothing. */
export type AccessTokenGrant = { userId: string; scopes: TokenScope[] } | { refused: "unknown" | "expired" };

/**
 * Looks up presented tokens by their hashes, in one statement for them all,
 * and marks the live ones used (at most once a minute, so that a busy client
 * does not write on every request).
 */
export async function findAccessTokens(
  db: Database,
  tokens: readonly string[],
): Promise<Map<string, AccessTokenGrant>> {
  const hashes = tokens.map(hashOf);
  const rows = await queryRows<{ hash: string; user_id: string; scopes: TokenScope[]; expired: boolean }>(
    db,
    `WITH found AS (
       SELECT id, user_id, scopes, token_hash, last_used_at, expires_at <= now() AS expired
         FROM resume.access_tokens
        WHERE token_hash IN (SELECT decode(h, 'hex') FROM unnest($1::text[]) AS h)
     ), used AS (
       UPDATE resume.access_tokens t SET last_used_at = now()
         FROM found f
        WHERE t.id = f.id AND NOT f.expired
          AND (f.last_used_at IS NULL OR f.last_used_at <= now() - interval '1 minute')
     )
     SELECT encode(token_hash, 'hex') AS hash, user_id, scopes, expired FROM found`,
    hashes,
  );
  const byHash = new Map(rows.map((row) => [row.hash, row]));
  return new Map(
    tokens.map((token, i): [string, AccessTokenGrant] => {
      const row = byHash.get(hashes[i]!);
      if (!row) return [token, { refused: "unknown" }];
      if (row.expired) return [token, { refused: "expired" }];
      return [token, { userId: row.user_id, scopes: row.scopes }];
    }),
  );
}
