import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in Chromium against the production build and a real
 * PostgreSQL (started by global-setup.ts). Playwright cannot download its
 * browser on machines without internet, so the system's Chromium is used when
 * there is one (Debian: apt-get install chromium); CHROMIUM_PATH overrides.
 */
const chromium =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const results = path.join(import.meta.dirname, "..", ".data", "test-results");

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  globalSetup: "./global-setup.ts",
  workers: 1,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  outputDir: path.join(results, "playwright-artifacts"),
  reporter: [["list"], ["json", { outputFile: path.join(results, "playwright.json") }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: "retain-on-failure",
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});
