import path from "node:path";
import { defineConfig } from "@playwright/test";
import { env, systemChromium } from "../scripts/env.ts";

/**
 * End-to-end tests in Chromium against the production build and a real
 * PostgreSQL (started by global-setup.ts). Playwright cannot download its
 * browser on machines without internet, so the system's Chromium is used when
 * there is one (Debian: apt-get install chromium); CHROMIUM_PATH overrides.
 */
const results = path.join(env.DATA_DIR, "test-results");

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
      ...(systemChromium ? { executablePath: systemChromium } : {}),
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
