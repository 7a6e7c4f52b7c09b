/**
 * `npm test`: typecheck, lint, the production build, then every test against a
 * real PostgreSQL. Ends with one line, `N passed, N failed`, where a check
 * (typecheck, lint, build) counts as one and each test case as one.
 */
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "./env.ts";
import { buildWeb, run } from "./processes.ts";

const tsx = ["--import", "tsx"];
const bin = (name: string) => path.join("node_modules", ".bin", name);
const resultsDir = path.join(env.DATA_DIR, "test-results");
await mkdir(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;

async function check(name: string, work: () => Promise<void>): Promise<boolean> {
  console.log(`\n▶ ${name}`);
  try {
    await work();
    passed += 1;
    return true;
  } catch (error) {
    console.error(`✗ ${name}: ${(error as Error).message}`);
    failed += 1;
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
const built = await check("next build", buildWeb);

if (built) {
  const report = path.join(resultsDir, "vitest.json");
  console.log("\n▶ vitest");
  await run(bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ]).catch(() => {});
  try {
    const results = JSON.parse(await readFile(report, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      success: boolean;
    };
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    if (!results.success && results.numFailedTests === 0) failed += 1; // a suite failed outside any test
  } catch {
    console.error("✗ vitest wrote no report");
    failed += 1;
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
