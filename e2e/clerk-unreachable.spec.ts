import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { env } from "../scripts/env.ts";
import { startWeb, stopProcess, waitForHealthy } from "../scripts/processes.ts";
import { freePort } from "../test/free-port.ts";

/**
 * The app with Clerk configured while Clerk cannot be reached: its Frontend
 * API is on the `.invalid` domain, which never resolves, as when Clerk is down
 * or blocked. A person must be told, not left at "Loading…". Clerk's own
 * script cannot run here at all (no internet), so this is also the browser
 * run of the Clerk-mode pages: they hydrate under the nonce policy and ask
 * Clerk's host for its script.
 */
const FRONTEND_API = "clerk.resume.invalid";
let baseUrl: string;
let web: ChildProcess;

test.beforeAll(async () => {
  const port = await freePort();
  web = startWeb(
    {
      DATABASE_URL: process.env.E2E_DATABASE_URL!,
      DATA_DIR: env.DATA_DIR,
      HOST: "127.0.0.1",
      PORT: port,
      LEDGER_PORT: 0,
      SHUTDOWN_DRAIN_MS: 0,
    },
    "quiet",
    {
      NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: `pk_live_${Buffer.from(`${FRONTEND_API}$`).toString("base64")}`,
      AUTH_AUDIENCE: "resume-api",
    },
  );
  baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${baseUrl}/openapi.json`);
});

test.afterAll(async () => {
  if (web) await stopProcess(web);
});

for (const path of ["/sign-in", "/editor"]) {
  test(`${path} says that sign-in is unavailable when Clerk cannot be reached`, async ({ page }) => {
    const policyViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    const clerkRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).host === FRONTEND_API) clerkRequests.push(request.url());
    });
    await page.goto(`${baseUrl}${path}`);
    // Clerk gives up on its script after 15 s.
    await expect(page.getByRole("alert").filter({ hasText: "Sign-in is unavailable" })).toBeVisible({
      timeout: 25_000,
    });
    await expect(page.getByText("Loading")).toHaveCount(0);
    expect(clerkRequests.some((url) => url.includes("/npm/@clerk/clerk-js@"))).toBe(true);
    expect(policyViolations).toEqual([]);
  });
}
