/**
 * The web app's process: `node --import tsx src/main.ts` (add `--dev` for
 * Next.js's development mode). The production build (`next build`) must exist
 * unless `--dev`. Everything the API needs is made here, once.
 */
import path from "node:path";
import nextEnv from "@next/env";
import next from "next";
import { createTokenVerifier } from "@app/auth";
import { createDatabase, databaseOptionsOf, isDatabaseReachable } from "@app/db";
import { closeServer, shutdownSignal } from "@app/rest";
import { createIdentify } from "./api/identify";
import { createRateLimiter } from "./api/rate-limiter";
import { createResumeApi } from "./api/resume-api";
import { createWebServer } from "./api/web-server";
import { createWholeResumeAnswers } from "./api/whole-resume-answers";
import { webEnv } from "./env";
import { authSetup } from "./server/auth";

const dir = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
// What `next start` and `next dev` read (.env, .env.local, ...), before anything reads the environment.
nextEnv.loadEnvConfig(dir, dev);
const env = webEnv();
const app = next({ dev, dir, hostname: env.HOST, port: env.PORT });
await app.prepare();

const db = createDatabase(databaseOptionsOf(env));
const api = createResumeApi({
  db,
  identify: createIdentify(createTokenVerifier((await authSetup()).verifier)),
  rateLimiter: createRateLimiter(env.RATE_LIMIT_PER_MINUTE),
  wholeResumeAnswers: createWholeResumeAnswers({ db, maxBytes: env.RESUME_ANSWER_CACHE_BYTES }),
});
const server = createWebServer({
  api,
  handleNext: app.getRequestHandler(),
  isDatabaseReachable: () => isDatabaseReachable(db),
});

server.listen(env.PORT, env.HOST, () => {
  console.log(`web app listening on http://${env.HOST}:${env.PORT}${dev ? " (development)" : ""}`);
});

await shutdownSignal();
const SHUTDOWN_GRACE_MS = 5_000;
// Whatever hangs past the grace period does not keep the process alive.
setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS + 3_000).unref();
await closeServer(server, SHUTDOWN_GRACE_MS);
await Promise.allSettled([app.close(), db.$disconnect()]);
process.exit(0);
