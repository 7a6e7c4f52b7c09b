/**
 * The web app's process: bundled by scripts/server-bundles.ts and run with
 * node, or `node --import tsx src/main.ts` (add `--dev` for Next.js's
 * development mode). The production build (`next build`) must exist
 * unless `--dev`. Everything the API needs is made here, once.
 */
import path from "node:path";
import nextEnv from "@next/env";
import next from "next";
import { createDatabase, databaseOptionsOf, findRepoRoot, isDatabaseReachable, poolStatsOf } from "@app/db";
import { CLIENT_ADDRESS_REQUESTS, purgeExpiredRows } from "@app/resume";
import {
  createLogger,
  createServiceMetrics,
  exitOnStartupFailure,
  listenOrExit,
  routeConsoleToLogger,
  serveMetrics,
  runUntilShutdown,
} from "@app/service";
import { createAnswerCache } from "./api/answer-cache.ts";
import { createCors } from "./api/cors.ts";
import { createDocumentWorkers } from "./api/document-workers.ts";
import { accessTokenFinder, createIdentify } from "./api/identify.ts";
import { createClientAddress } from "./api/client-address.ts";
import { createPublicPages } from "./api/public-pages.ts";
import { createResumeApi } from "./api/resume-api.ts";
import { createSharedRateLimit } from "./api/shared-rate-limit.ts";
import { createWebServer } from "./api/web-server.ts";
import { clerkConfig, webEnv } from "./env.ts";
import {
  isLoopbackHost,
  refuseLocalSignInOnNetwork,
  servesLoopbackNamesOnly,
} from "./refuse-local-sign-in-on-network.ts";
import { tokenVerifier } from "./server/auth.ts";

/** How soon after start an instance first purges expired rows: out of the way of its start-up. */
const PURGE_FIRST_AFTER_MS = 5_000;

const startup = exitOnStartupFailure("web");
// The app's folder (Next.js's build and config), found from the repository's root: this file runs bundled, from dist/.
const dir = path.join(findRepoRoot(), "apps", "web");
const dev = process.argv.includes("--dev");
// What `next start` and `next dev` read (.env, .env.local, ...), before anything reads the environment.
nextEnv.loadEnvConfig(dir, dev);
const env = webEnv();
clerkConfig(); // read now, so that a wrong key stops the start, not a page
await refuseLocalSignInOnNetwork();
const logger = createLogger("web", { level: env.LOG_LEVEL });
startup.logger(logger);
routeConsoleToLogger(logger);
const app = next({ dev, dir, hostname: env.HOST, port: env.PORT });
await app.prepare();

const db = createDatabase(databaseOptionsOf(env, "web"));
const metrics = createServiceMetrics("web", () => poolStatsOf(db));
const rateLimit = createSharedRateLimit(db, env.RATE_LIMIT_PER_MINUTE);
metrics.gauge(
  "resume_rate_limit_windows",
  "Users whose rate-limit window this instance holds in memory.",
  rateLimit.heldWindows,
);
const documentWorkers =
  env.DOCUMENT_WORKERS > 0 ? createDocumentWorkers(env.DOCUMENT_WORKERS, logger) : undefined;
const answerCache = createAnswerCache({ maxBytes: env.RESUME_ANSWER_CACHE_BYTES });
const api = createResumeApi({
  db,
  identify: createIdentify(await tokenVerifier(), accessTokenFinder(db)),
  rateLimit,
  answerCache,
  documentWorkers,
  publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  logger,
  metrics,
});
const publicPages = createPublicPages({
  db,
  rateLimit: createSharedRateLimit(db, env.PUBLIC_RATE_LIMIT_PER_MINUTE, CLIENT_ADDRESS_REQUESTS),
  clientAddressOf: createClientAddress(env.TRUSTED_PROXIES),
  answerCache,
  documentWorkers,
  logger,
  metrics,
});
const service = createWebServer({
  api,
  cors: createCors(env.CORS_ALLOWED_ORIGINS),
  publicPages,
  handleNext: app.getRequestHandler(),
  isDatabaseReachable: () => isDatabaseReachable(db),
  ...((await servesLoopbackNamesOnly()) ? { acceptsHost: isLoopbackHost } : {}),
  logger,
  metrics,
});
await listenOrExit(service.server, { port: env.PORT, host: env.HOST, setting: "PORT", logger });
logger.info({ url: `http://${env.HOST}:${env.PORT}`, dev }, "web app listening");
const metricsServer = env.METRICS_PORT
  ? await serveMetrics(metrics.registry, {
      port: env.METRICS_PORT,
      host: env.HOST,
      setting: "METRICS_PORT",
      logger,
    })
  : null;
startup.started();

// Idempotency keys are kept 24 h, request counts a minute: any instance purges what is older, soon
// after it starts (instances restarted more often than hourly purge too), then hourly.
const purgeNow = () =>
  purgeExpiredRows(db).catch((error: unknown) => logger.warn({ err: error }, "purging expired rows failed"));
setTimeout(() => {
  void purgeNow();
  setInterval(() => void purgeNow(), 60 * 60_000).unref();
}, PURGE_FIRST_AFTER_MS).unref();

await runUntilShutdown({
  service,
  drainMs: env.SHUTDOWN_DRAIN_MS,
  logger,
  close() {
    metricsServer?.close();
    // Views counted during the drain are written before the pool closes.
    return publicPages
      .close()
      .then(() => Promise.allSettled([app.close(), db.$disconnect(), documentWorkers?.close()]));
  },
});
