/**
 * The bare HTTP posting ceilings (issue 23), run by the posting benchmark as a
 * child process of its own: node:http and a database pool, nothing else. It
 * checks no signature, no limits and keeps no logs or metrics: what serving a
 * post costs in Node at the least. BARE_POSTING_STORE says where a post goes:
 *
 * - `minimal` (the ceiling of issue 23): the POST's JSON body (the ledger's:
 *   idempotency_key, two entries of account_id and amount) is written into
 *   the minimal schema (bench/minimal-schema.ts) by one autocommit statement
 *   and answered 201 with a small JSON body. The work the ledger adds on top
 *   of it is what the ratio to it shows.
 * - `ledger`: the body is read with the ledger's own input schema and posted
 *   by the ledger's own store (postTransaction: the project's schema and its
 *   checks, idempotency, the group commit), and answered 201 with the
 *   transaction as the ledger answers it. What the ledger's storage allows
 *   with nothing of its HTTP edge around it (SigV4, tRPC, logs, metrics):
 *   the ratio of the served posts to it is what that edge costs, its ratio to
 *   the minimal ceiling what the ledger's storage costs.
 *
 * DATABASE_URL names the database; it listens on a free port of 127.0.0.1
 * and sends `{ port }` to its parent over IPC. It exits on SIGTERM, and when
 * its parent goes (the IPC channel closes), so a bench that dies leaves no
 * server behind.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { createDatabase } from "@app/db";
import { postTransactionInput } from "../packages/ledger/src/schemas.ts";
import { postTransaction } from "../packages/ledger/src/store/transactions.ts";

const databaseUrl = process.env.DATABASE_URL;
const store = process.env.BARE_POSTING_STORE ?? "minimal";
if (!databaseUrl || !process.send || !["minimal", "ledger"].includes(store)) {
  console.error(
    "bare-posting-server: run by the bench (DATABASE_URL, BARE_POSTING_STORE and an IPC channel)",
  );
  process.exit(1);
}

/** The ledger's default pool (DATABASE_POOL_SIZE), so both servers may keep as many statements in flight. */
const POOL_SIZE = 10;

/** A post's answer: its status and JSON body. */
type Posted = [status: number, body: unknown];

interface Posting {
  post(body: string): Promise<Posted>;
  end(): Promise<void>;
}

/**
 * One statement, so one round trip and one commit per post: the transaction,
 * then its entries from the CTE's row (their foreign key sees it: checked at
 * the statement's end). The deferred balance trigger runs at the commit.
 * Named, so each connection parses it once, as the ledger and pgbench do.
 */
const POST = {
  name: "bare-post",
  text: `WITH t AS (
    INSERT INTO minimal.transactions (id, idempotency_key, effective_date) VALUES ($1, $2, current_date)
    RETURNING id, effective_date)
  INSERT INTO minimal.entries (transaction_id, position, account_id, amount, effective_date)
  SELECT t.id, e.position, e.account_id, e.amount, t.effective_date
    FROM t, (VALUES (0, $3::uuid, $4::bigint), (1, $5::uuid, $6::bigint)) AS e(position, account_id, amount)`,
};

interface Entry {
  account_id: string;
  amount: number;
}

/** The values of a two-entry post, or null when the body is not one. */
function postOf(body: string): { key: string; entries: [Entry, Entry] } | null {
  let parsed: { idempotency_key?: unknown; entries?: unknown };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return null;
  }
  const { idempotency_key: key, entries } = parsed ?? {};
  if (typeof key !== "string" || !Array.isArray(entries) || entries.length !== 2) return null;
  const isEntry = (e: unknown): e is Entry =>
    typeof (e as Entry)?.account_id === "string" && Number.isSafeInteger((e as Entry)?.amount);
  return entries.every(isEntry) ? { key, entries: entries as [Entry, Entry] } : null;
}

/** The status of a refused statement: a known key, an unknown account, unbalanced entries. */
function statusOf(error: unknown): number {
  const code = (error as { code?: string }).code;
  if (code === "23505") return 409;
  if (code === "23503" || code === "23514" || code === "22P02") return 422;
  return 500;
}

/** A post the store did not write: a refusal's status, or 500 (logged) for anything else. */
function notWritten(status: number, error: unknown): Posted {
  if (status === 500) console.error(error);
  return [status, { error: status === 500 ? "failed" : "refused" }];
}

/** Posts into the minimal schema, one autocommit statement each. */
function minimalPosting(url: string): Posting {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // An idle connection that fails is dropped by the pool; without a listener its error would end the process.
  pool.on("error", (error) => console.error(error));
  return {
    async post(body) {
      const post = postOf(body);
      if (!post) return [400, { error: "a post of two entries" }];
      const id = randomUUID();
      const [debit, credit] = post.entries;
      try {
        await pool.query({
          ...POST,
          values: [id, post.key, debit.account_id, debit.amount, credit.account_id, credit.amount],
        });
        return [201, { id, idempotency_key: post.key }];
      } catch (error) {
        return notWritten(statusOf(error), error);
      }
    },
    end: () => pool.end(),
  };
}

/** Posts through the ledger's own input schema and store, as the bench's signer. */
function ledgerPosting(url: string): Posting {
  const db = createDatabase({ connectionString: url, poolSize: POOL_SIZE });
  return {
    async post(body) {
      let input;
      try {
        input = postTransactionInput.parse(JSON.parse(body));
      } catch {
        return [400, { error: "not a post" }];
      }
      try {
        const { transaction, replayed } = await postTransaction(db, input, "bench");
        return [replayed ? 200 : 201, transaction];
      } catch (error) {
        // A refusal is a DomainError with its status; anything else is the store failing.
        return notWritten((error as { status?: number }).status ?? 500, error);
      }
    },
    end: () => db.$disconnect(),
  };
}

const posting = store === "ledger" ? ledgerPosting(databaseUrl) : minimalPosting(databaseUrl);

function send(res: http.ServerResponse, [status, body]: Posted): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = http.createServer((req, res) => {
  if (req.method !== "POST") return send(res, [404, { error: "not found" }]);
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", async () => send(res, await posting.post(Buffer.concat(chunks).toString("utf8"))));
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  await posting.end();
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("disconnect", () => void stop());

server.listen(0, "127.0.0.1", () => {
  process.send!({ port: (server.address() as { port: number }).port });
});
