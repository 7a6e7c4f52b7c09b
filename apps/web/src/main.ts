/**
 * The web app's process: `node --import tsx src/main.ts` (add `--dev` for
 * Next.js's development mode). The production build (`next build`) must exist
 * unless `--dev`.
 */
import path from "node:path";
import next from "next";
import { webEnv } from "./env";
import { database } from "./server/db";
import { createWebServer } from "./server/web-server";

const env = webEnv();
const dev = process.argv.includes("--dev");
const app = next({ dev, dir: path.resolve(import.meta.dirname, ".."), hostname: env.HOST, port: env.PORT });
await app.prepare();
const server = createWebServer(app.getRequestHandler());

server.listen(env.PORT, env.HOST, () => {
  console.log(`web app listening on http://localhost:${env.PORT}${dev ? " (development)" : ""}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void Promise.allSettled([app.close(), database().$disconnect()]).finally(() => process.exit(0));
  });
}
