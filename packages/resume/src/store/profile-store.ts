import {
  batchCallsPerClient,
  databaseErrorCode,
  inTransaction,
  isDatabase,
  isoTimestampSql,
  mayBeOneWritersFailure,
  nextUpdatedAtOf,
  queryRows,
  type Database,
  type Queryable,
} from "@app/db";
import { versionConflict, type VersionCheck } from "@app/rest/preconditions";
import type { Profile, ProfileInput } from "../schemas/profile.ts";
import { columnValues, PROFILE_COLUMNS, profileJson, VERSION_SQL } from "./sql.ts";

/** The caller's profile; null before the first PUT. */
export async function getProfile(db: Database, userId: string): Promise<Profile | null> {
  const [row] = await queryRows<{ profile: Profile }>(
    db,
    `SELECT ${profileJson()} AS profile FROM resume.profiles t WHERE t.user_id = $1`,
    userId,
  );
  return row?.profile ?? null;
}

/**
 * Creates or replaces the caller's profile; omitted optional fields are
 * cleared. Answers it as GET /me/profile does, built here from the values
 * written (stored as they are: `text` refuses what PostgreSQL would change)
 * and the row's two times: JSON built in PostgreSQL cost every write about
 * 0.1 ms (docs/benchmarks.md, "Resume reads and writes").
 * On the database (not in a caller's transaction) it commits together with
 * the other profile writes that arrive meanwhile (upsertTogether), unless it
 * has a `check` (the request's If-Match...: checkedUpsert, in a transaction of
 * its own, so not in a caller's).
 */
export async function putProfile(
  db: Queryable,
  userId: string,
  fields: ProfileInput,
  check?: VersionCheck,
): Promise<Profile> {
  const values = columnValues(PROFILE_COLUMNS, fields);
  if (check && !isDatabase(db)) throw new Error("a checked profile write runs in a transaction of its own");
  const written = !isDatabase(db)
    ? await upsertAlone(db, { userId, values })
    : check
      ? await checkedUpsert(db, { userId, values }, check)
      : await writtenTogether(db, userId, values);
  if ("failed" in written) throw written.failed;
  return {
    entity_type: "profile",
    pk: `USER#${userId}`,
    sk: "PROFILE",
    ...fields,
    created_at: written.created_at,
    updated_at: written.updated_at,
  };
}

/**
 * Writes the profile when `check` passes for its version (null when there is
 * none), read and locked in the same transaction. No row to lock when there
 * is no profile: the insert then adds one only if none was added meanwhile
 * (else the check runs again, on the one added).
 */
async function checkedUpsert(db: Database, write: ProfileValues, check: VersionCheck): Promise<Written> {
  return inTransaction(db, async (tx) => {
    for (;;) {
      const [row] = await tx.query<{ version: string }>(
        `SELECT ${VERSION_SQL} AS version FROM resume.profiles t WHERE t.user_id = $1 FOR UPDATE`,
        write.userId,
      );
      const current = row?.version ?? null;
      if (!check(current)) throw versionConflict("profile", current);
      const times = await upsertProfiles(tx, [write], current === null ? "DO NOTHING" : "DO UPDATE");
      const written = times.get(write.userId);
      if (written) return written;
    }
  });
}

/** One person's profile as written: the values in PROFILE_COLUMNS's order. */
interface ProfileValues {
  userId: string;
  values: unknown[];
}
interface WrittenTimes {
  created_at: string;
  updated_at: string;
}
type Written = WrittenTimes | { failed: unknown };
/** A write waiting for its statement, answered (`settle`) as soon as that statement ends. */
interface ProfileWrite extends ProfileValues {
  settle(written: Written): void;
}

const PROFILE_COLUMN_NAMES = Object.keys(PROFILE_COLUMNS);
/**
 * Any number of people's profiles in one statement: one array per column, the
 * rows in the arrays' order (one text for every size, so one prepared
 * statement). `DO NOTHING` adds only the profiles that are not there.
 */
const upsertProfilesSql = (onConflict: "DO UPDATE" | "DO NOTHING") =>
  `INSERT INTO resume.profiles AS t (user_id, ${PROFILE_COLUMN_NAMES.join(", ")})
  SELECT * FROM unnest($1::text[], ${Object.values(PROFILE_COLUMNS)
    .map((type, i) => `$${i + 2}::${type}[]`)
    .join(", ")})
  ON CONFLICT (user_id) ${
    onConflict === "DO NOTHING"
      ? "DO NOTHING"
      : `DO UPDATE SET ${PROFILE_COLUMN_NAMES.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}, updated_at = ${nextUpdatedAtOf("t")}`
  }
  RETURNING t.user_id, ${isoTimestampSql("t.created_at")} AS created_at, ${isoTimestampSql("t.updated_at")} AS updated_at`;
const UPSERT_PROFILES_SQL = {
  "DO UPDATE": upsertProfilesSql("DO UPDATE"),
  "DO NOTHING": upsertProfilesSql("DO NOTHING"),
};

/** Each person's times, by user id (those written); `writes` hold each person at most once. */
async function upsertProfiles(
  db: Queryable,
  writes: ProfileValues[],
  onConflict: "DO UPDATE" | "DO NOTHING" = "DO UPDATE",
): Promise<Map<string, WrittenTimes>> {
  const columns = PROFILE_COLUMN_NAMES.map((_, i) => writes.map(({ values }) => values[i]));
  const rows = await queryRows<WrittenTimes & { user_id: string }>(
    db,
    UPSERT_PROFILES_SQL[onConflict],
    writes.map(({ userId }) => userId),
    ...columns,
  );
  return new Map(rows.map(({ user_id, ...times }) => [user_id, times]));
}

async function upsertAlone(db: Queryable, write: ProfileValues): Promise<Written> {
  return (await upsertProfiles(db, [write])).get(write.userId)!;
}

/**
 * What may be one write's failure (mayBeOneWritersFailure), and here also a
 * lock waited for past the lock timeout (55P03): one person's rows are held
 * by their import for its whole transaction, which no other write waits for.
 */
const mayBeOneProfilesFailure = (error: unknown) =>
  mayBeOneWritersFailure(error) || databaseErrorCode(error) === "55P03";

function writtenTogether(db: Database, userId: string, values: unknown[]): Promise<Written> {
  return new Promise((settle) => {
    // upsertTogether settles every write it is given; should it throw, the write fails with that.
    upsertTogether(db, { userId, values, settle }).catch((failed: unknown) => settle({ failed }));
  });
}

/**
 * Profile writes that arrive while the last statement runs go in the next
 * one: one commit, and one WAL flush, for all of them (in the resume mix of
 * `npm run bench`, a profile write's flush was about two thirds of its time
 * in the database; docs/benchmarks.md, "Profile writes commit together").
 * What it keeps:
 * - Each write is answered as soon as the commit that holds it ends, never
 *   before.
 * - A person's writes keep their order: a person's second write waiting goes
 *   in a statement after the one with their first (one statement cannot
 *   write a row twice).
 * - Rows go in user-id order, so two servers' statements cannot deadlock on
 *   each other's rows (any other transaction touches one person only).
 * - A failure that may be one write's (mayBeOneProfilesFailure) fails that
 *   write only: the statement's writes are tried again one by one, at once.
 *   Until then the others of its statement wait with it: a row locked by its
 *   person's import holds them up to the lock timeout.
 * - Any other failure (an outage, a statement timeout) fails the writes of
 *   its statement and of the rounds after it (the same people's later
 *   writes), as it would have failed each of them alone.
 */
const upsertTogether = batchCallsPerClient(
  async (db: Database, writes: ProfileWrite[]): Promise<Map<ProfileWrite, void>> => {
    const rounds = inRoundsOfOnePerPerson(writes);
    for (const [i, round] of rounds.entries()) {
      try {
        const times = await upsertProfiles(db, round);
        for (const write of round) write.settle(times.get(write.userId)!);
      } catch (error) {
        if (!mayBeOneProfilesFailure(error)) {
          for (const write of rounds.slice(i).flat()) write.settle({ failed: error });
          break;
        }
        if (round.length === 1) round[0]!.settle({ failed: error });
        else
          await Promise.all(
            round.map((write) =>
              upsertAlone(db, write).then(write.settle, (failed: unknown) => write.settle({ failed })),
            ),
          );
      }
    }
    return new Map(writes.map((write) => [write, undefined]));
  },
);

/** The writes as statements to run one after another: each person once in each, in arrival order, sorted by user id. */
function inRoundsOfOnePerPerson(writes: ProfileWrite[]): ProfileWrite[][] {
  const rounds: ProfileWrite[][] = [];
  const roundsOf = new Map<string, number>();
  for (const write of writes) {
    const round = roundsOf.get(write.userId) ?? 0;
    roundsOf.set(write.userId, round + 1);
    (rounds[round] ??= []).push(write);
  }
  // No two writes of one round have the same user id.
  return rounds.map((round) => round.sort((a, b) => (a.userId < b.userId ? -1 : 1)));
}
