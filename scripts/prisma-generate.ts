/**
 * `prisma generate`, run after `npm install` and before start and test.
 *
 * The Prisma CLI insists on its schema-engine binary even for `generate`, which
 * does not use it, and downloads it when missing. Where that download is
 * impossible (no internet), pointing PRISMA_SCHEMA_ENGINE_BINARY at any file
 * satisfies the check. We do that only when the variable is unset, with a
 * placeholder that explains itself if anything ever runs it: migrations are
 * applied by `npm run db:migrate`, never by the Prisma CLI.
 *
 * A client made from the same schema and the same locked Prisma version is
 * kept: generating takes seconds of every `npm start`.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { digestOfInputs, isMadeFrom, recordMadeFrom } from "./build-inputs.ts";
import { env, repoRoot } from "./env.ts";

const generated = path.join(repoRoot, "packages", "db", "src", "generated");
const stamp = path.join(generated, "inputs-digest");
const digest = digestOfInputs(["prisma/schema.prisma", "prisma.config.ts", "package-lock.json"]);
if (existsSync(path.join(generated, "prisma", "client.ts")) && isMadeFrom(stamp, digest)) process.exit(0);

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
  // No update check or telemetry: the machines this runs on may have no internet.
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: engine,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
recordMadeFrom(stamp, digest);
