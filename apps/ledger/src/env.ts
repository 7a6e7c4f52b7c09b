import path from "node:path";
import { findRepoRoot } from "@app/db/paths";
import { z } from "zod";

const schema = z.object({
  DATABASE_URL: z.string().url(),
  HOST: z.string().default("127.0.0.1"),
  LEDGER_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  DATA_DIR: z.string().optional(),
});

/** The ledger's configuration, validated once at start. */
export function readLedgerEnv(source: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid ledger configuration:\n${z.prettifyError(parsed.error)}`);
  return {
    ...parsed.data,
    DATA_DIR: path.resolve(findRepoRoot(), parsed.data.DATA_DIR ?? ".data"),
  };
}

export type LedgerEnv = ReturnType<typeof readLedgerEnv>;
