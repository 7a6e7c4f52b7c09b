import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import type { Database } from "@app/db";
import type { Account, AccountType } from "../schemas.ts";
import { ACCOUNT_JSON } from "./sql.ts";

export async function createAccount(
  db: Database,
  input: { name: string; type: AccountType; currency: string },
): Promise<Account> {
  const [row] = await db.$queryRawUnsafe<{ account: Account }[]>(
    `INSERT INTO ledger.accounts AS a (id, name, type, currency) VALUES ($1::uuid, $2, $3::ledger.account_type, $4)
     RETURNING ${ACCOUNT_JSON} AS account`,
    randomUUID(),
    input.name,
    input.type,
    input.currency,
  );
  return row!.account;
}

/** Every account in creation order. */
export async function listAccounts(db: Database): Promise<Account[]> {
  const [row] = await db.$queryRawUnsafe<{ items: Account[] }[]>(
    `SELECT coalesce(json_agg(${ACCOUNT_JSON} ORDER BY a.seq), '[]'::json) AS items FROM ledger.accounts a`,
  );
  return row!.items;
}

export async function getAccount(db: Database, id: string): Promise<Account> {
  const [row] = await db.$queryRawUnsafe<{ account: Account }[]>(
    `SELECT ${ACCOUNT_JSON} AS account FROM ledger.accounts a WHERE a.id = $1::uuid`,
    id,
  );
  if (!row) throw accountNotFound();
  return row.account;
}

export const accountNotFound = () => new TRPCError({ code: "NOT_FOUND", message: "no account with that id" });
