import { existsSync } from "node:fs";
import { dataDirectory, findRepoRoot } from "@app/db/paths";
import { z } from "zod";

/** Configuration of the root commands (start, test, db:migrate, token). */
const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().optional(),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  LEDGER_PORT: z.coerce.number().int().min(1).max(65535).default(4000),
  LEDGER_REGION: z.string().default("us-east-1"),
  /** npm start's drain on Ctrl-C: one instance of each service, no load balancer to notice a readiness 503. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(1_000),
  LEDGER_CREDENTIALS_FILE: z.string().optional(),
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Where embedded clusters go when the `postgres` user cannot enter the checkout (root in a private folder). */
  EMBEDDED_POSTGRES_STATE_DIR: z.string().optional(),
  PRISMA_SCHEMA_ENGINE_BINARY: z.string().optional(),
  CHROMIUM_PATH: z.string().optional(),
  /** Set by `npm test` for its run of the REST and posting tests through a real PgBouncer. */
  TEST_THROUGH_PGBOUNCER: z.stringbool().optional(),
  /** test/recorded-answers.test.ts writes its fixture anew instead of comparing (a deliberate change of answers). */
  RECORD_ANSWERS: z.stringbool().optional(),
  BENCH_SECONDS: z.coerce.number().positive().default(10),
  /** Connections of the resume benchmark's load tool (the issue's figure is at 32). */
  BENCH_RESUME_CONNECTIONS: z.coerce.number().int().min(1).default(32),
  /** When set, the bench starts its servers with `--cpu-prof` writing here (NODE_OPTIONS may not carry it). */
  BENCH_CPU_PROFILE_DIR: z.string().optional(),
  AUTH_ISSUER: z.string().optional(),
  AUTH_AUDIENCE: z.string().optional(),
  AUTH_JWKS_URL: z.string().url().optional(),
  AUTH_PUBLIC_KEY: z.string().optional(),
  NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: z.string().optional(),
});

const parsed = schema.safeParse(process.env);
if (!parsed.success) {
  console.error(`Invalid configuration:\n${z.prettifyError(parsed.error)}`);
  process.exit(1);
}

export const repoRoot = findRepoRoot();
export const env = {
  ...parsed.data,
  DATA_DIR: dataDirectory(parsed.data.DATA_DIR),
};

/** The system's Chromium (Debian's where there is no internet), for the end-to-end tests; undefined when none. */
export const systemChromium: string | undefined =
  env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
