import path from "node:path";
import { databaseSettings } from "@app/db";
import { readSettings, serviceSettings } from "@app/service";
import { dataDirectory } from "@app/db/paths";
import { z } from "zod";

const schema = z.object({
  ...databaseSettings,
  ...serviceSettings,
  /** Prometheus text at http://HOST:LEDGER_METRICS_PORT/metrics; unset: no metrics listener. */
  LEDGER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  HOST: z.string().default("127.0.0.1"),
  LEDGER_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  LEDGER_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default("us-east-1"),
  LEDGER_CREDENTIALS_FILE: z.string().min(1, "must name the credentials file, or be left unset").optional(),
  DATA_DIR: z.string().optional(),
  /**
   * Where waiting GET /events LISTEN for other instances' writes: a session of
   * its own, so never PgBouncer in transaction mode. Default: DATABASE_URL,
   * unless prepared statements are off (taken as PgBouncer in transaction
   * mode); "off": waits only poll (docs/operations.md, "Event feed").
   */
  DATABASE_LISTEN_URL: z.union([z.literal("off"), z.string().url()]).optional(),
  /** How often a waiting GET /events looks again without being woken (raw SQL writes, no LISTEN). */
  LEDGER_EVENTS_POLL_MS: z.coerce.number().int().min(10).max(10_000).default(250),
  /** How often each instance writes hold.expired events for holds that expired unresolved. */
  LEDGER_EXPIRED_HOLDS_SWEEP_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
});

/** The ledger's configuration, validated once at start (an empty variable counts as unset). */
export function readLedgerEnv(source: NodeJS.ProcessEnv = process.env) {
  // Set to nothing, the credentials file is a mistake, not a request for the generated development key.
  const settings = readSettings(schema, source, "ledger", ["LEDGER_CREDENTIALS_FILE"]);
  const dataDir = dataDirectory(settings.DATA_DIR);
  return {
    ...settings,
    DATA_DIR: dataDir,
    listenUrl: listenUrlOf(settings),
    /** The credentials file in use: the configured one, else the generated development one. */
    credentialsFile: settings.LEDGER_CREDENTIALS_FILE ?? developmentCredentialsFile(dataDir),
  };
}

function listenUrlOf({
  DATABASE_LISTEN_URL,
  DATABASE_URL,
  DATABASE_PREPARED_STATEMENTS,
}: z.output<typeof schema>) {
  if (DATABASE_LISTEN_URL === "off") return null;
  return DATABASE_LISTEN_URL ?? (DATABASE_PREPARED_STATEMENTS ? DATABASE_URL : null);
}

export const developmentCredentialsFile = (dataDir: string) => path.join(dataDir, "ledger-credentials.json");

export type LedgerEnv = ReturnType<typeof readLedgerEnv>;
