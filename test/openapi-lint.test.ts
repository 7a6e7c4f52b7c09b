/**
 * Both live OpenAPI documents through Redocly's linter (its recommended
 * rules): no error and no warning.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/env.ts";
import { startLedgerServer, type LedgerServer } from "./ledger-server.ts";
import { startWebServer, type WebServer } from "./web-server.ts";

const run = promisify(execFile);
let web: WebServer;
let ledger: LedgerServer;
let folder: string;

beforeAll(async () => {
  [web, ledger] = await Promise.all([startWebServer(), startLedgerServer()]);
  folder = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
});

afterAll(async () => {
  await Promise.all([web?.stop(), ledger?.stop()]);
  await rm(folder, { recursive: true, force: true });
});

async function lint(service: string, baseUrl: string) {
  const file = path.join(folder, `${service}.json`);
  await writeFile(file, await (await fetch(`${baseUrl}/openapi.json`)).text());
  const { stdout } = await run(
    path.join(repoRoot, "node_modules", ".bin", "redocly"),
    ["lint", file, "--format=json"],
    {
      // No usage data and no update check: the machines this runs on may have no internet.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  return JSON.parse(stdout) as {
    totals: { errors: number; warnings: number };
    problems: { message: string }[];
  };
}

describe("@redocly/cli lint, recommended rules", () => {
  it("finds nothing in the resume service's document", async () => {
    const report = await lint("resume", web.url);
    expect(report.problems.map((p) => p.message)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("finds nothing in the ledger's document", async () => {
    const report = await lint("ledger", ledger.url);
    expect(report.problems.map((p) => p.message)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
