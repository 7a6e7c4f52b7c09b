/**
 * The web app's process: `node --import tsx src/main.ts` (add `--dev` for
 * Next.js's development mode). The production build (`next build`) must exist
 * unless `--dev`.
 */
import path from "node:path";
import nextEnv from "@next/env";
import next from "next";
import { closeOnSignals } from "@app/rest";
import { webEnv } from "./env";
import { disconnectDatabase } from "./server/db";
import { createWebServer } from "./server/web-server";

const dir = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
// What `next start` and `next dev` read (.env, .env.local, ...), before anything reads the environment.
nextEnv.loadEnvConfig(dir, dev);
const env = webEnv();
const app = next({ dev, dir, hostname: env.HOST, port: env.PORT });
await app.prepare();
const server = createWebServer(app.getRequestHandler());

server.listen(env.PORT, env.HOST, () => {
  console.log(`web app listening on http://${env.HOST}:${env.PORT}${dev ? " (development)" : ""}`);
});
closeOnSignals(server, () => Promise.allSettled([app.close(), disconnectDatabase()]));
