import { createHash, randomBytes, randomUUID } from "node:crypto";
import { isoTimestampSql, queryRows, type Database, type Queryable } from "@app/db";
import { DomainError } from "@app/rest/errors";
import type { ShareLink } from "../schemas/share-link.ts";
import { createOnce } from "./create-once.ts";
import { advisoryXactLock } from "./sql.ts";

/** Links one version may have at once; the next create answers 409. */
export const SHARE_LINKS_PER_VERSION = 10;

/** 24 random bytes: 192 bits, 32 base64url characters (the contract asks for at least 128 bits). */
const SLUG_BYTES = 24;
/** What a slug looks like: anything else is unknown without asking the database. */
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export const newSlug = (): string => randomBytes(SLUG_BYTES).toString("base64url");
export const slugHashOf = (slug: string): string => createHash("sha256").update(slug).digest("hex");

/** The public page of `slug` under `publicUrl` (an origin, perhaps with a path, without a trailing slash). */
export const shareUrlOf = (publicUrl: string, slug: string): string => `${publicUrl}/r/${slug}`;

type StoredLink = Omit<ShareLink, "url"> & { slug: string };

const LINK_JSON = `json_build_object(
  'id', l.id,
  'slug', l.slug,
  'name', l.name,
  'created_at', ${isoTimestampSql("l.created_at")},
  'expires_at', ${isoTimestampSql("l.expires_at")},
  'views', l.views,
  'last_viewed_at', ${isoTimestampSql("l.last_viewed_at")})`;

const versionNotFound = () => new DomainError(404, "no tailored version with that id");
const linkNotFound = () => new DomainError(404, "no share link with that id");

const answered = (publicUrl: string, { slug, ...link }: StoredLink): ShareLink => ({
  ...link,
  url: shareUrlOf(publicUrl, slug),
});

/** What a new link is: its name (null: none) and its days until it expires (null: until revoked). */
export interface NewShareLink {
  name: string | null;
  expiresInDays: number | null;
}

/**
 * Makes a link to one of the person's versions; it works until revoked, or for
 * `expiresInDays`. Retry-safe under an Idempotency-Key (createOnce): a retry
 * answers the same link.
 */
export async function createShareLink(
  db: Database,
  userId: string,
  versionId: string,
  { name, expiresInDays }: NewShareLink,
  publicUrl: string,
  idempotencyKey: string | null = null,
): Promise<{ made: ShareLink; replayed: boolean }> {
  const created = await createOnce(db, {
    userId,
    idempotencyKey,
    // The version's id as its URL has it: the same in capitals.
    route: `versions/${versionId.toLowerCase()}/links`,
    what: "link",
    // An unnamed link's request as it was before links had names: a retry across that upgrade still matches.
    request: name === null ? { expires_in_days: expiresInDays } : { expires_in_days: expiresInDays, name },
    // The lock makes the count and the insert one step, so concurrent creates cannot pass the cap.
    lock: advisoryXactLock(`share_links:${userId}`),
    make: async (tx) => {
      const slug = newSlug();
      // FOR KEY SHARE: a version being deleted is waited for, then not found (a 404), where the
      // link's foreign key would have failed the insert (a 500).
      const [row] = await tx.query<{ found: boolean; link: StoredLink | null }>(
        `WITH version AS (SELECT id FROM resume.tailored_versions WHERE id = $2::uuid AND user_id = $3 FOR KEY SHARE),
         inserted AS (
           INSERT INTO resume.share_links AS l (id, version_id, user_id, slug, slug_hash, expires_at, name)
           SELECT $1::uuid, version.id, $3, $4, decode($5, 'hex'),
                  now() + make_interval(days => $6::int), $7
             FROM version
            WHERE (SELECT count(*) FROM resume.share_links WHERE version_id = $2::uuid) < ${SHARE_LINKS_PER_VERSION}
           RETURNING ${LINK_JSON} AS link)
         SELECT EXISTS (SELECT 1 FROM version) AS found, (SELECT link FROM inserted) AS link`,
        randomUUID(),
        versionId,
        userId,
        slug,
        slugHashOf(slug),
        expiresInDays,
        name,
      );
      const { found, link } = row!;
      if (!found) throw versionNotFound();
      if (!link)
        throw new DomainError(409, `at most ${SHARE_LINKS_PER_VERSION} links per version; revoke one first`);
      return answered(publicUrl, link);
    },
  });
  // A link kept by a create from before links had a name and a last view lacks both: null, as for a new one.
  const { made } = created;
  return {
    ...created,
    made: { ...made, name: made.name ?? null, last_viewed_at: made.last_viewed_at ?? null },
  };
}

/** A version's links, newest first, expired ones included (until revoked), with their views. */
export async function listShareLinks(
  db: Queryable,
  userId: string,
  versionId: string,
  publicUrl: string,
): Promise<ShareLink[]> {
  const [row] = await queryRows<{ found: boolean; items: StoredLink[] }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM resume.tailored_versions WHERE id = $1::uuid AND user_id = $2) AS found,
            (SELECT coalesce(json_agg(${LINK_JSON} ORDER BY l.created_at DESC, l.id), '[]'::json)
               FROM resume.share_links l WHERE l.version_id = $1::uuid AND l.user_id = $2) AS items`,
    versionId,
    userId,
  );
  if (!row!.found) throw versionNotFound();
  return row!.items.map((link) => answered(publicUrl, link));
}

/** Names a link anew (null: no name); its address, expiry and views stay. */
export async function renameShareLink(
  db: Queryable,
  userId: string,
  id: string,
  name: string | null,
  publicUrl: string,
): Promise<ShareLink> {
  const [row] = await queryRows<{ link: StoredLink }>(
    db,
    `UPDATE resume.share_links l SET name = $3 WHERE l.id = $1::uuid AND l.user_id = $2 RETURNING ${LINK_JSON} AS link`,
    id,
    userId,
    name,
  );
  if (!row) throw linkNotFound();
  return answered(publicUrl, row.link);
}

/** Revokes a link: its row goes, so its page is a 404 at once on every instance. */
export async function revokeShareLink(db: Database, userId: string, id: string): Promise<void> {
  const deleted = await queryRows(
    db,
    `DELETE FROM resume.share_links WHERE id = $1::uuid AND user_id = $2 RETURNING true`,
    id,
    userId,
  );
  if (deleted.length === 0) throw linkNotFound();
}

/** What a live link (not revoked, not expired) shows, and the resume version its answers are kept under. */
export interface SharedVersion {
  linkId: string;
  userId: string;
  versionId: string;
  /**
   * The owner's resume version (migration resume_versions), which moves on every change to what the
   * page shows; null when their row is missing (removed by hand): then nothing is kept.
   */
  resumeVersion: string | null;
}

/**
 * The live links of these slug hashes, in one statement for them all; a
 * revoked (deleted) or expired link is not found, exactly as an unknown one.
 * Every public page waits on it, so it goes to the pool without Prisma (queryRows).
 */
export async function findSharedVersions(
  db: Database,
  slugHashes: readonly string[],
): Promise<Map<string, SharedVersion | null>> {
  const rows = await queryRows<{
    hash: string;
    link_id: string;
    user_id: string;
    version_id: string;
    resume_version: string | null;
  }>(
    db,
    `SELECT encode(l.slug_hash, 'hex') AS hash, l.id AS link_id, l.user_id, l.version_id,
            rv.version::text AS resume_version
       FROM resume.share_links l LEFT JOIN resume.versions rv ON rv.user_id = l.user_id
      WHERE l.slug_hash IN (SELECT decode(h, 'hex') FROM unnest($1::text[]) AS h)
        AND (l.expires_at IS NULL OR l.expires_at > now())`,
    slugHashes,
  );
  const found = new Map<string, SharedVersion | null>(slugHashes.map((hash) => [hash, null]));
  for (const row of rows) {
    found.set(row.hash, {
      linkId: row.link_id,
      userId: row.user_id,
      versionId: row.version_id,
      resumeVersion: row.resume_version,
    });
  }
  return found;
}

/** Page views of one link counted and not yet written, and when the last of them was answered. */
export interface CountedViews {
  count: number;
  lastAt: Date;
}

/**
 * Adds counted page views to their links, each with the time of its last view
 * (a view counted again after a failed write keeps its own time), in one
 * statement; a link revoked meanwhile is skipped.
 */
export async function addShareLinkViews(
  db: Database,
  views: ReadonlyMap<string, CountedViews>,
): Promise<void> {
  if (views.size === 0) return;
  const counted = [...views.values()];
  await queryRows(
    db,
    `UPDATE resume.share_links l
        SET views = l.views + v.n, last_viewed_at = GREATEST(l.last_viewed_at, v.at)
       FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS v(id, n, at) WHERE l.id = v.id`,
    [...views.keys()],
    counted.map((c) => c.count),
    counted.map((c) => c.lastAt.toISOString()),
  );
}
