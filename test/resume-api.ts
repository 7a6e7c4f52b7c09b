import pg from "pg";
import { inject } from "vitest";
import { createTokenVerifier, resolveAuthSetup, type TokenVerifierConfig } from "@app/auth";
import { createDatabase, isDatabaseReachable } from "@app/db";
import { CLIENT_ADDRESS_REQUESTS } from "@app/resume";
import { createLogger } from "@app/service";
import { createAnswerCache } from "../apps/web/src/api/answer-cache.ts";
import { createCors } from "../apps/web/src/api/cors.ts";
import { accessTokenFinder, createIdentify } from "../apps/web/src/api/identify.ts";
import { createClientAddress } from "../apps/web/src/api/client-address.ts";
import { createPublicPages } from "../apps/web/src/api/public-pages.ts";
import { createResumeApi } from "../apps/web/src/api/resume-api.ts";
import { createSharedRateLimit } from "../apps/web/src/api/shared-rate-limit.ts";
import { createWebServer } from "../apps/web/src/api/web-server.ts";
import { env } from "../scripts/env.ts";
import { freePort } from "./free-port.ts";
import type { WebServer } from "./web-server.ts";

export interface ResumeApiOptions {
  rateLimitPerMinute?: number;
  answerCacheBytes?: number;
  /** Another database (or role) than this run's. */
  databaseUrl?: string;
  /** CORS_ALLOWED_ORIGINS. */
  corsAllowedOrigins?: string[];
  /** PUBLIC_RATE_LIMIT_PER_MINUTE. */
  publicRateLimitPerMinute?: number;
  /** TRUSTED_PROXIES. */
  trustedProxies?: string[];
  /** PUBLIC_URL; unset: the API's own address. */
  publicUrl?: string;
  /** Another identity provider than the local issuer. */
  verifier?: TokenVerifierConfig;
}

/**
 * The web app's API (`/me/*`, `/api/trpc/*`, `/healthz`, `/livez`) in this
 * process, as main.ts wires it, over a real HTTP listener against this run's
 * database and the local issuer: no Next.js and no build. Other paths answer
 * 404. Its log lines are dropped.
 */
export async function startResumeApi(options: ResumeApiOptions = {}): Promise<WebServer> {
  const db = createDatabase({
    connectionString: options.databaseUrl ?? inject("databaseUrl"),
    poolSize: 10,
    preparedStatements: inject("preparedStatements"),
  });
  const auth = await resolveAuthSetup({}, env.DATA_DIR);
  const logger = createLogger("web", { destination: { write: () => {} } });
  const answerCache = createAnswerCache({ maxBytes: options.answerCacheBytes ?? 1 << 20 });
  const port = await freePort();
  const ownUrl = `http://127.0.0.1:${port}`;
  const api = createResumeApi({
    db,
    identify: createIdentify(createTokenVerifier(options.verifier ?? auth.verifier), accessTokenFinder(db)),
    rateLimit: createSharedRateLimit(db, options.rateLimitPerMinute ?? 300),
    answerCache,
    publicUrl: options.publicUrl ?? ownUrl,
    logger,
  });
  const publicPages = createPublicPages({
    db,
    rateLimit: createSharedRateLimit(db, options.publicRateLimitPerMinute ?? 60, CLIENT_ADDRESS_REQUESTS),
    clientAddressOf: createClientAddress(options.trustedProxies ?? []),
    answerCache,
    logger,
  });
  const { server } = createWebServer({
    api,
    cors: createCors(options.corsAllowedOrigins ?? []),
    publicPages,
    handleNext: async (_req, res) => {
      res.writeHead(404).end();
    },
    isDatabaseReachable: () => isDatabaseReachable(db),
    logger,
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: ownUrl,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await publicPages.close();
      await db.$disconnect();
    },
  };
}

/**
 * Two APIs on this run's database, each with its own caches (what one
 * instance writes or revokes, the other must see at once), and a SQL client
 * beside them to check what was stored.
 */
export async function startTwoResumeApis(options: ResumeApiOptions = {}): Promise<{
  first: WebServer;
  second: WebServer;
  sql: pg.Client;
  stop(): Promise<void>;
}> {
  const [first, second] = await Promise.all([startResumeApi(options), startResumeApi(options)]);
  const sql = new pg.Client({ connectionString: inject("databaseUrl") });
  await sql.connect();
  return {
    first,
    second,
    sql,
    stop: async () => {
      await sql.end();
      await Promise.all([first.stop(), second.stop()]);
    },
  };
}
