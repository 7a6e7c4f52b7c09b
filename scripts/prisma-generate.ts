/**
 * `prisma generate`, run after `npm install` and before start and test.
 *
 * The Prisma CLI insists on its schema-engine binary even for `generate`, which
 * does not use it, and downloads it when missing. Where that download is
 * impossible (no internet), pointing PRISMA_SCHEMA_ENGINE_BINARY at any file
 * satisfies the check. We do that only when the variable is unset, with a
 * placeholder that explains itself if anything ever runs it: migrations are
 * applied by `npm run db:migrate`, never by the Prisma CLI.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env, repoRoot } from "./env.ts";

let engine = env.PRISMA_SCHEMA_ENGINE_BINARY;
if (!engine) {
  engine = path.join(env.DATA_DIR, "prisma", "schema-engine-placeholder");
  mkdirSync(path.dirname(engine), { recursive: true });
  writeFileSync(
    engine,
    "#!/bin/sh\necho 'this project applies migrations with npm run db:migrate' >&2\nexit 1\n",
  );
  chmodSync(engine, 0o755);
}

execFileSync("npx", ["prisma", "generate"], {
  cwd: repoRoot,
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: engine, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
