import { THEME_NAMES } from "@app/resume/client";
import { expect, test, type Page } from "@playwright/test";
import { tokenFor } from "../test/tokens.ts";
import { section, signIn, uniqueUser } from "./helpers.ts";

/** What the place of a refused call says (describeFailure's message for a 401). */
const EXPIRED = "Your session has expired. Sign in again; what you typed is kept.";

/**
 * Swaps the session cookie for a token of the same person that expired a
 * minute ago (past the verifier's 5 s leeway): the server answers the
 * editor's next call 401, as it does when an 8-hour session runs out.
 */
async function expireSession(page: Page, userId: string) {
  await page.context().addCookies([
    {
      name: "resume_session",
      value: await tokenFor(userId, -60),
      domain: new URL(page.url()).hostname,
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
    },
  ]);
}

/** The editor as it is once any call was refused for an expired session. */
async function expectSessionExpired(page: Page, userId: string) {
  const notice = page.getByRole("alert").filter({ hasText: "Your session has expired. Sign in again:" });
  await expect(notice).toBeVisible();
  await expect(notice.getByRole("link", { name: "Sign in again" })).toHaveAttribute(
    "href",
    `/sign-in?next=/editor&user=${userId}`,
  );
  await expect(page.locator("header")).toContainText("Session expired");
  await expect(page.locator("header")).not.toContainText("Signed in as");
}

/** A hobby stored through the REST API before the person opens the editor. */
async function storeHobby(page: Page, userId: string, name: string) {
  const answer = await page.request.post("/me/hobbies", {
    headers: { authorization: `Bearer ${await tokenFor(userId)}` },
    data: { name },
  });
  expect(answer.status()).toBe(201);
}

// Every place of the editor that calls the server, refused with a real 401:
// each shows its own message where it shows failures, and the whole editor
// says the session expired (one failure hook, one session context).

test("an expired session while deleting an entry: the entry stays, nothing is announced as deleted", async ({
  page,
}) => {
  const user = uniqueUser("expiry-delete");
  await storeHobby(page, user, "Chess");
  await signIn(page, user);
  const hobbies = section(page, "Hobbies");
  await expect(hobbies.getByTestId("hobbies-entry")).toHaveText([/Chess/]);
  await expireSession(page, user);

  page.once("dialog", (dialog) => void dialog.accept());
  await hobbies.getByRole("button", { name: "Delete Chess" }).click();
  await expect(hobbies.getByRole("alert")).toHaveText(EXPIRED);
  await expectSessionExpired(page, user);
  await expect(hobbies.getByRole("status")).toHaveText("");
  await expect(hobbies.getByTestId("hobbies-entry")).toHaveText([/Chess/]);
});

test("an expired session while saving the profile: the form says so and keeps what was typed", async ({
  page,
}) => {
  const user = uniqueUser("expiry-profile");
  await signIn(page, user);
  await expireSession(page, user);

  const profile = section(page, "Profile");
  await profile.getByLabel("Name", { exact: true }).fill("Kept Name");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByRole("alert")).toHaveText(EXPIRED);
  await expectSessionExpired(page, user);
  await expect(profile.getByRole("status")).toHaveText("");
  await expect(profile.getByLabel("Name", { exact: true })).toHaveValue("Kept Name");
});

test("an expired session while importing: the panel says so, nothing is imported", async ({ page }) => {
  const user = uniqueUser("expiry-import");
  await signIn(page, user);
  await expireSession(page, user);

  await page.getByRole("button", { name: "Import…" }).click();
  const panel = page.getByRole("region", { name: "Import a resume" });
  await page.getByLabel("Resume file").setInputFiles({
    name: "resume.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ basics: { name: "Imported Person" } })),
  });
  await panel.getByRole("button", { name: "Replace my resume" }).click();
  await expect(panel.getByRole("alert")).toHaveText(EXPIRED);
  await expectSessionExpired(page, user);
  await expect(panel.getByRole("status")).toHaveText("");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
});

test("an expired session while opening the API tokens: the live region announces it", async ({ page }) => {
  const user = uniqueUser("expiry-tokens");
  await signIn(page, user);
  await expireSession(page, user);

  const panel = page.getByRole("region", { name: "API tokens" });
  await panel.getByRole("button", { name: "Manage API tokens" }).click();
  await expect(panel.getByRole("status")).toHaveText(EXPIRED);
  await expectSessionExpired(page, user);
  await expect(panel.getByText("No tokens yet.")).toHaveCount(0);
});

test("an expired session while switching the preview to a theme: the editor says so", async ({ page }) => {
  const user = uniqueUser("expiry-theme");
  await signIn(page, user);
  await expireSession(page, user);

  await page.getByLabel("Style").selectOption(THEME_NAMES[0]);
  await expectSessionExpired(page, user);
  // The session notice stands in for the editor's own message about the failed call.
  await expect(page.getByRole("alert").filter({ hasText: EXPIRED })).toHaveCount(0);
});

test("an expired session while downloading the JSON Resume: the editor says so, nothing is downloaded", async ({
  page,
}) => {
  const user = uniqueUser("expiry-download");
  await signIn(page, user);
  await expireSession(page, user);
  const downloads: string[] = [];
  page.on("download", (download) => downloads.push(download.suggestedFilename()));

  await page.getByRole("button", { name: "Download…" }).click();
  await page.getByRole("button", { name: "JSON Resume (.json)" }).click();
  await expectSessionExpired(page, user);
  await expect(page.getByRole("alert").filter({ hasText: EXPIRED })).toHaveCount(0);
  expect(downloads).toEqual([]);
});

test("an expired session while downloading a version's PDF: its live region says so, nothing is downloaded", async ({
  page,
}) => {
  const user = uniqueUser("expiry-version-download");
  await signIn(page, user);
  await page.getByRole("button", { name: "Manage versions" }).click();
  await page.getByLabel("Name of the new version").fill("Backend roles");
  await page.getByRole("button", { name: "Create version" }).click();
  const editor = page.getByTestId("version-editor");
  await expect(editor.getByRole("heading", { name: "Version “Backend roles”" })).toBeVisible();
  await expireSession(page, user);
  const downloads: string[] = [];
  page.on("download", (download) => downloads.push(download.suggestedFilename()));

  await editor.getByRole("button", { name: "Download PDF (A4)" }).click();
  await expectSessionExpired(page, user);
  // Not "Preparing the PDF (A4) file…" for ever.
  await expect(editor.getByRole("status").first()).toHaveText(
    "Your session has expired, so the PDF (A4) file was not downloaded. Sign in again, then download it.",
  );
  expect(downloads).toEqual([]);
});
