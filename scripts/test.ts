/**
 * `npm test`: typecheck, lint, the production build, then every test against a
 * real PostgreSQL. Ends with a line per failure (scripts/test-reports.ts),
 * then one line, `N passed, N failed`, where a check (typecheck, lint,
 * build) counts as one and each test case as one.
 */
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { exitIfEmbeddedPostgresFailed, startEmbeddedCluster, TEST_CLUSTER } from "./database.ts";
import { env, systemChromium } from "./env.ts";
import { buildWebUnlessBuilt, run } from "./processes.ts";
import { pgbouncerBinary } from "../test/pgbouncer.ts";
import { type Counts, firstLine, playwrightCounts, vitestCounts } from "./test-reports.ts";

const tsx = ["--import", "tsx"];
const bin = (name: string) => path.join("node_modules", ".bin", name);
const resultsDir = path.join(env.DATA_DIR, "test-results");
await mkdir(resultsDir, { recursive: true });

// The tests' PostgreSQL, started first so that a machine where it cannot run
// hears why at once; the test runners' setups share it while this runs.
const testCluster = env.DATABASE_URL
  ? null
  : await startEmbeddedCluster(TEST_CLUSTER, { database: "postgres" }).catch(exitIfEmbeddedPostgresFailed);

let passed = 0;
let failed = 0;
/** What failed, each with its first message line: printed again last, where CI's tail shows it. */
const failures: string[] = [];

async function check(name: string, work: () => Promise<void>): Promise<boolean> {
  console.log(`\n▶ ${name}`);
  try {
    await work();
    passed += 1;
    return true;
  } catch (error) {
    console.error(`✗ ${name}: ${(error as Error).message}`);
    failed += 1;
    failures.push(`${name}: ${firstLine((error as Error).message)}`);
    return false;
  }
}

await check("prisma generate", () => run(process.execPath, [...tsx, "scripts/prisma-generate.ts"]));
await check("typecheck", () =>
  run(bin("turbo"), ["run", "typecheck", "--output-logs=errors-only"]).then(() =>
    run(bin("tsc"), ["--noEmit", "-p", "."]),
  ),
);
await check("lint", () =>
  run(bin("eslint"), [".", "--max-warnings", "0"]).then(() =>
    run(bin("prettier"), ["--check", "--log-level=warn", "."]),
  ),
);
// Made again only when its sources changed (and never under a running npm start: processes.ts).
const built = await check("next build", async () => void (await buildWebUnlessBuilt()));

/** Adds a test runner's counts from its JSON report; a missing report is one failure. */
async function count(report: string, read: (json: never) => Counts) {
  try {
    const counts = read(JSON.parse(await readFile(report, "utf8")) as never);
    passed += counts.passed;
    failed += counts.failed;
    failures.push(...counts.failures);
  } catch {
    console.error(`✗ no report at ${report}`);
    failed += 1;
    failures.push(`no report at ${report}`);
  }
}

/** The tests that run a second time through PgBouncer: every statement kind of both services. */
const THROUGH_PGBOUNCER = [
  "apps/web/test/resume-rest.test.ts",
  "apps/web/test/whole-resume.test.ts",
  "apps/web/test/tailored-versions.test.ts",
  "apps/web/test/share-links.test.ts",
  "apps/ledger/test/posting.test.ts",
  "apps/ledger/test/idempotency.test.ts",
  "apps/ledger/test/entries-and-reversal.test.ts",
  "apps/ledger/test/balances.test.ts",
  "apps/ledger/test/balance-limits.test.ts",
  "apps/ledger/test/metadata-search-pages.test.ts",
  "test/event-feed.test.ts",
];

if (built) {
  console.log("\n▶ vitest");
  const report = path.join(resultsDir, "vitest.json");
  await rm(report, { force: true });
  await run(bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ]).catch(() => {});
  await count(report, vitestCounts);

  // The REST and posting tests once more, through a real PgBouncer in transaction mode.
  console.log("\n▶ vitest through PgBouncer (transaction mode)");
  if (pgbouncerBinary) {
    const throughReport = path.join(resultsDir, "vitest-pgbouncer.json");
    await rm(throughReport, { force: true });
    await run(
      bin("vitest"),
      [
        "run",
        ...THROUGH_PGBOUNCER,
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${throughReport}`,
      ],
      { env: { ...process.env, TEST_THROUGH_PGBOUNCER: "true" } },
    ).catch(() => {});
    await count(throughReport, vitestCounts);
  } else {
    console.log("skipped: pgbouncer is not installed (Debian: apt-get install pgbouncer; .ci/run does)");
  }

  console.log("\n▶ playwright (Chromium, production build)");
  const e2eReport = path.join(resultsDir, "playwright.json");
  await rm(e2eReport, { force: true });
  if (!systemChromium) {
    // No system Chromium (Debian's is used where there is no internet): Playwright's own, downloaded once.
    await run(bin("playwright"), ["install", "chromium"]).catch(() => {});
  }
  await run(bin("playwright"), ["test", "-c", "e2e/playwright.config.ts"]).catch(() => {});
  await count(e2eReport, playwrightCounts);
}

await testCluster?.stop();
for (const failure of failures) console.log(`✗ ${failure}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
