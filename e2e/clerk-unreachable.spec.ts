import { expect, test } from "@playwright/test";
import { startProductionWeb, type WebServer } from "../test/production-web.ts";

/**
 * The app with Clerk configured while Clerk cannot be reached: its Frontend
 * API is on the `.invalid` domain, which never resolves, as when Clerk is down
 * or blocked. A person must be told, not left at "Loading…". Clerk's own
 * script cannot run here at all (no internet), so this is also the browser
 * run of the Clerk-mode pages: they hydrate under the nonce policy and ask
 * Clerk's host for its script.
 */
const FRONTEND_API = "clerk.resume.invalid";
let web: WebServer | undefined;

test.beforeAll(async () => {
  web = await startProductionWeb(
    process.env.E2E_DATABASE_URL!,
    {
      NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: `pk_live_${Buffer.from(`${FRONTEND_API}$`).toString("base64")}`,
      AUTH_AUDIENCE: "resume-api",
    },
    "/openapi.json",
  );
});

test.afterAll(async () => {
  await web?.stop();
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
    await page.goto(`${web!.url}${path}`);
    // Clerk gives up on its script after 15 s.
    await expect(page.getByRole("alert").filter({ hasText: "Sign-in is unavailable" })).toBeVisible({
      timeout: 25_000,
    });
    await expect(page.getByText("Loading")).toHaveCount(0);
    expect(clerkRequests.some((url) => url.includes("/npm/@clerk/clerk-js@"))).toBe(true);
    expect(policyViolations).toEqual([]);
  });
}
