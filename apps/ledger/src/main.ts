import type { AddressInfo } from "node:net";
import {
  createDatabase,
  createNotifier,
  databaseOptionsOf,
  listenForNotifications,
  poolStatsOf,
} from "@app/db";
import {
  createChangeSignal,
  EVENTS_CHANNEL,
  LEDGER_ACTIONS,
  observeGroupCommits,
  sweepExpiredHolds,
} from "@app/ledger";
import {
  createLogger,
  ConfigurationError,
  createServiceMetrics,
  exitOnStartupFailure,
  listenOrExit,
  routeConsoleToLogger,
  serveMetrics,
  runUntilShutdown,
} from "@app/service";
import { ensureDevelopmentCredentials, loadCredentials } from "@app/sigv4";
import { readLedgerEnv } from "./env.ts";
import { createLedgerServer } from "./server.ts";

const startup = exitOnStartupFailure("ledger");
const env = readLedgerEnv();
const logger = createLogger("ledger", { level: env.LOG_LEVEL });
startup.logger(logger);
routeConsoleToLogger(logger);
if (!env.LEDGER_CREDENTIALS_FILE) await ensureDevelopmentCredentials(env.credentialsFile, LEDGER_ACTIONS);
const credentials = await loadCredentials(env.credentialsFile, LEDGER_ACTIONS).catch((error: unknown) => {
  // A file the setting names is a setting that is wrong: said in one line, without a stack.
  if (!env.LEDGER_CREDENTIALS_FILE) throw error;
  throw new ConfigurationError(
    `invalid ledger configuration: LEDGER_CREDENTIALS_FILE: ${(error as Error).message}`,
  );
});
const db = createDatabase(databaseOptionsOf(env, "ledger"));
const metrics = createServiceMetrics("ledger", () => poolStatsOf(db));
const groupSizes = metrics.histogram(
  "ledger_group_commit_posts",
  "Posts in one group-commit statement: new ones, and replays and refusals that came with them.",
  [1, 2, 4, 8, 16, 32, 64, 100],
);
observeGroupCommits((posts) => groupSizes.observe(posts));

// Waiting GET /events wake at a write of any instance: each announces its writes (NOTIFY after the
// commit) and LISTENs for the others'. Without LISTEN (PgBouncer in transaction mode) waits poll.
const changes = createChangeSignal(env.LEDGER_EVENTS_POLL_MS);
const notifyOthers = createNotifier(db, EVENTS_CHANNEL, (error) =>
  logger.warn({ err: String(error) }, "could not NOTIFY the event feed's listeners"),
);
const listener = env.listenUrl
  ? listenForNotifications(env.listenUrl, EVENTS_CHANNEL, changes.changed, (error) =>
      logger.warn({ err: String(error) }, "the event feed's LISTEN connection failed; reconnecting"),
    )
  : null;
/** A write, told to this instance's waits and, through NOTIFY, to the others'. */
const announceChange = () => {
  changes.changed();
  notifyOthers();
};
const service = createLedgerServer({
  db,
  credentials,
  region: env.LEDGER_REGION,
  logger,
  metrics,
  changes,
  announceChange,
});
// Holds that expire unresolved are told in the feed too (hold.expired), by a sweep of every instance.
const expiredHolds = sweepExpiredHolds(db, {
  everyMs: env.LEDGER_EXPIRED_HOLDS_SWEEP_MS,
  onWritten: announceChange,
  onError: (error) =>
    logger.warn(
      { err: String(error) },
      "the sweep for expired holds failed; each next one tries again (said once until one succeeds)",
    ),
});

await listenOrExit(service.server, { port: env.LEDGER_PORT, host: env.HOST, setting: "LEDGER_PORT", logger });
// The port bound: LEDGER_PORT=0 asks for any free one.
const { port } = service.server.address() as AddressInfo;
logger.info(
  { url: `http://localhost:${port}`, access_keys: credentials.size, region: env.LEDGER_REGION },
  "ledger listening",
);
const metricsServer = env.LEDGER_METRICS_PORT
  ? await serveMetrics(metrics.registry, {
      port: env.LEDGER_METRICS_PORT,
      host: env.HOST,
      setting: "LEDGER_METRICS_PORT",
      logger,
    })
  : null;
startup.started();

await runUntilShutdown({
  service,
  drainMs: env.SHUTDOWN_DRAIN_MS,
  logger,
  async close() {
    await expiredHolds.stop();
    metricsServer?.close();
    await listener?.close();
    await db.$disconnect();
  },
});
