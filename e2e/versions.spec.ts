import { readFile } from "node:fs/promises";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { THEME_NAMES } from "@app/resume/client";
import { env } from "../scripts/env.ts";
import { THREE_JOBS } from "../test/three-jobs.ts";
import { section, severeViolations, signIn, sql, uniqueUser } from "./helpers.ts";

const SCREENSHOTS = path.join(env.DATA_DIR, "test-results", "screenshots");

/** Axe's serious and critical findings in the Versions section. */
const versionsViolations = (page: Page) =>
  severeViolations(
    new AxeBuilder({ page })
      .include("section[aria-labelledby='versions-heading']")
      // The theme's page in its script-less frame, which axe cannot enter (it waits for it until the test times out).
      .exclude("[data-testid='theme-preview']"),
  );

/** A profile and three jobs, written through the editor's own API (its session cookie), then the editor reloaded. */
async function threeJobs(page: Page) {
  const call = (procedure: string, input: unknown) =>
    page.request.post(`/api/trpc/${procedure}`, { data: input }).then((r) => expect(r.status()).toBe(200));
  await call("profile.put", { name: "Jo Tailor", headline: "Engineer", email: "jo@example.org" });
  for (const job of THREE_JOBS) await call("experience.create", job);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
}

/** What the test reads of an element in the page (the tests are compiled without the DOM's types). */
interface PageElement {
  scrollIntoView(options: { block: string }): void;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  contains(other: unknown): boolean;
  ownerDocument: { elementFromPoint(x: number, y: number): unknown };
}

/** Opens the Versions panel, makes a version named `name` in it and returns its editor. */
async function makeVersion(page: Page, name: string) {
  await page.getByRole("button", { name: "Manage versions" }).click();
  return createVersion(page, name);
}

/** Makes a version named `name` in the Versions panel, open already, and returns its editor. */
async function createVersion(page: Page, name: string) {
  await page.getByRole("form", { name: "New version" }).getByLabel("Name of the new version").fill(name);
  await page.getByRole("button", { name: "Create version" }).click();
  const editor = page.getByTestId("version-editor");
  await expect(editor.getByRole("heading", { name: `Version “${name}”` })).toBeVisible();
  return editor;
}

/** Deletes the version `name` in a tab of its own in `context`, as another tab of the person would. */
async function deleteInAnotherTab(context: BrowserContext, name: string) {
  const other = await context.newPage();
  await other.goto("/editor");
  await other.getByRole("button", { name: "Manage versions" }).click();
  other.on("dialog", (dialog) => void dialog.accept());
  await other.getByRole("button", { name: `Delete ${name}` }).click();
  await expect(other.getByText(`Version “${name}” deleted.`)).toBeVisible();
}

test("a version with two of three jobs, its link copied and opened with no session: the two jobs and its PDF", async ({
  page,
  browser,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, uniqueUser("versions"));
  await threeJobs(page);
  const editor = await makeVersion(page, "Two jobs");
  await expect(editor.getByLabel("Version name")).toBeFocused();
  // "Edit" on the version just made, open already, keeps it open.
  await page.getByRole("button", { name: "Edit Two jobs" }).click();
  await expect(editor.getByRole("heading", { name: "Version “Two jobs”" })).toBeVisible();

  await editor.getByLabel("All experience, and what I add later").uncheck();
  await editor.getByLabel("Engineer — Beta Labs").uncheck();
  await editor.getByLabel("Headline").fill("Platform engineer");
  await editor.getByRole("button", { name: "Save version" }).click();
  await expect(editor.getByRole("status").first()).toHaveText("Version saved.");
  await expect(page.getByTestId("version")).toContainText("2 of 3 entries");

  await editor.getByRole("button", { name: "Preview" }).click();
  const preview = editor.frameLocator("[data-testid='theme-preview']");
  await expect(preview.locator("body")).toContainText("Gamma Inc");
  await expect(preview.locator("body")).not.toContainText("Beta Labs");

  for (const [paper, mediaBox] of [
    ["A4", "[0 0 595.28 841.89]"],
    ["US Letter", "[0 0 612 792]"],
  ] as const) {
    const [ownPdf] = await Promise.all([
      page.waitForEvent("download"),
      editor.getByRole("button", { name: `Download PDF (${paper})` }).click(),
    ]);
    expect(ownPdf.suggestedFilename()).toBe("Jo-Tailor-resume-Two-jobs.pdf");
    expect((await readFile((await ownPdf.path())!)).toString("latin1")).toContain(`/MediaBox ${mediaBox}`);
  }

  const links = editor.getByTestId("share-links");
  // The version's preview scrolls with the forms: it covers none of the controls below it.
  for (const scrolled of ["start", "center", "end"] as const) {
    const reached = await links
      .getByRole("button", { name: "Create link" })
      .evaluate((button: PageElement, block) => {
        button.scrollIntoView({ block });
        const { x, y, width, height } = button.getBoundingClientRect();
        return button.contains(button.ownerDocument.elementFromPoint(x + width / 2, y + height / 2));
      }, scrolled);
    expect(reached, `Create link scrolled to the ${scrolled}`).toBe(true);
  }
  await links.getByRole("button", { name: "Create link" }).click();
  await expect(links.getByRole("status")).toHaveText("Link made: copy it and send it.");
  await links.getByRole("button", { name: /^Copy link 1/ }).click();
  await expect(links.getByRole("status")).toHaveText("Link copied to the clipboard.");
  const url = await page.evaluate<string>("navigator.clipboard.readText()");
  expect(url).toMatch(/\/r\/[A-Za-z0-9_-]{32}$/);
  expect(await versionsViolations(page)).toEqual([]);

  // A recruiter: another browser context, no session cookie.
  const stranger = await browser.newContext({ acceptDownloads: true });
  const visit = await stranger.newPage();
  const answer = await visit.goto(url);
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()["x-robots-tag"]).toBe("noindex");
  await expect(visit.locator("body")).toContainText("Alpha Corp");
  await expect(visit.locator("body")).toContainText("Gamma Inc");
  await expect(visit.locator("body")).toContainText("Platform engineer");
  await expect(visit.locator("body")).not.toContainText("Beta Labs");
  await visit.screenshot({ path: path.join(SCREENSHOTS, "shared-version-page.png"), fullPage: true });
  const [pdf] = await Promise.all([
    visit.waitForEvent("download"),
    visit.getByRole("link", { name: "PDF (A4)" }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe("Jo-Tailor-resume.pdf");
  const bytes = await readFile((await pdf.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  await stranger.close();

  // Its views, in the owner's list; revoked, the stranger's page is gone.
  await expect(async () => {
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Edit Two jobs" }).click();
    await expect(page.getByTestId("share-link")).toContainText("1 view (last ", { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  // When it was opened, as a day the browser reads out; the machine-readable instant beside it.
  const lastViewed = page.getByTestId("share-link").locator("time").first();
  expect(Date.parse((await lastViewed.getAttribute("datetime"))!)).toBeGreaterThan(Date.now() - 60_000);
  // Deleting the version asks first, saying what its link's recipients lose; dismissed, nothing goes.
  const answerDialog = (accept: boolean) =>
    new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.message());
        void (accept ? dialog.accept() : dialog.dismiss());
      }),
    );
  let asked = answerDialog(false);
  await page.getByRole("button", { name: "Delete Two jobs" }).click();
  expect(await asked).toBe(
    "Delete the version “Two jobs”? Its working share link (opened 1 time) stops working at once.",
  );
  await expect(page.getByTestId("share-link")).toHaveCount(1);

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: /^Revoke link 1/ }).click();
  await expect(page.getByTestId("share-links").getByRole("status")).toHaveText("Link revoked.");
  expect((await page.request.get(url)).status()).toBe(404);

  asked = answerDialog(true);
  await page.getByRole("button", { name: "Delete Two jobs" }).click();
  expect(await asked).toBe("Delete the version “Two jobs”? It has no working share link.");
  await expect(page.getByTestId("versions").getByRole("status").first()).toHaveText(
    "Version “Two jobs” deleted.",
  );
});

/** The slug of a share link's address, by which the test finds its row in the database. */
const slugOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

/** Closes the version's editor and opens it again, so that its links are read again. */
async function reopenVersion(page: Page, name: string) {
  await page.getByTestId("version-editor").getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: `Edit ${name}` }).click();
  return page.getByTestId("version-editor");
}

test("an expired link says it no longer works and how to free its place, and offers no Copy", async ({
  page,
}) => {
  await signIn(page, uniqueUser("expired-link"));
  let editor = await makeVersion(page, "Sent out");
  const create = editor.getByRole("button", { name: "Create link" });
  await create.click();
  await expect(editor.getByTestId("share-link")).toHaveCount(1);
  await create.click();
  await expect(editor.getByTestId("share-link")).toHaveCount(2);
  // Link 1, the older (listed last), had a week, and the week is over.
  const url = await editor.getByRole("textbox", { name: /^Link 1,/ }).inputValue();
  await sql(
    "UPDATE resume.share_links SET expires_at = now() - interval '1 hour' WHERE slug = $1",
    slugOf(url),
  );
  expect((await page.request.get(url)).status()).toBe(404);
  editor = await reopenVersion(page, "Sent out");
  const [newer, older] = [editor.getByTestId("share-link").first(), editor.getByTestId("share-link").last()];
  await expect(older).toContainText(/expired .*\d{4} — no longer works; revoke it to free its place/);
  // Its address is there to tell which link it was, but not in a field nor with a Copy: sent, it shows nothing.
  await expect(older).toContainText(url);
  await expect(older.getByRole("textbox")).toHaveCount(0);
  await expect(older.getByRole("button", { name: /Copy/ })).toHaveCount(0);
  await expect(older.getByRole("button", { name: /^Revoke expired link 1,/ })).toBeVisible();
  await expect(newer).toContainText("never expires");
  await expect(newer).not.toContainText("expired");
  await expect(newer.getByRole("button", { name: /^Copy link 2,/ })).toBeVisible();
  expect(await versionsViolations(page)).toEqual([]);
  await editor
    .getByTestId("share-links")
    .screenshot({ path: path.join(SCREENSHOTS, "expired-share-link.png") });

  // Revoked, it frees its place, and the list is the working link alone.
  page.once("dialog", (dialog) => void dialog.accept());
  await older.getByRole("button", { name: /^Revoke expired link 1,/ }).click();
  await expect(editor.getByTestId("share-link")).toHaveCount(1);
  await expect(editor.getByTestId("share-link")).not.toContainText("expired");
});

test("a link named after whom it goes to, when made or later, is listed by its name, which stays off its page", async ({
  page,
  browser,
}) => {
  await signIn(page, uniqueUser("named-link"));
  await threeJobs(page);
  const editor = await makeVersion(page, "Sent to Acme");
  const name = editor.getByRole("textbox", { name: "Link for", exact: true });
  await expect(name).toHaveAccessibleDescription(/only you see its name/);
  await name.fill("Acme, Jane Doe");
  await editor.getByRole("button", { name: "Create link" }).click();
  await expect(editor.getByTestId("share-link")).toHaveCount(1);
  // Made, the field is empty again: the next link is not named after this one by mistake.
  await expect(name).toHaveValue("");
  await editor.getByRole("button", { name: "Create link" }).click();
  await expect(editor.getByTestId("share-link")).toHaveCount(2);
  const named = editor.getByRole("textbox", { name: /^Link for Acme, Jane Doe, made / });
  await expect(named).toBeVisible();
  await expect(editor.getByRole("textbox", { name: /^Link 2, made / })).toBeVisible();
  await expect(editor.getByRole("button", { name: /^Copy link for Acme, Jane Doe, made / })).toBeVisible();
  await expect(editor.getByRole("button", { name: /^Revoke link for Acme, Jane Doe, made / })).toBeVisible();
  expect(await versionsViolations(page)).toEqual([]);
  await editor
    .getByTestId("share-links")
    .screenshot({ path: path.join(SCREENSHOTS, "named-share-link.png") });

  // The unnamed one named afterwards, from the prompt its Rename opens with the name it has.
  page.once("dialog", (dialog) => {
    expect(dialog.defaultValue()).toBe("");
    void dialog.accept("  Globex ");
  });
  await editor.getByRole("button", { name: /^Rename link 2, made / }).click();
  await expect(editor.getByTestId("share-links").getByRole("status")).toHaveText(
    "The link is now for Globex.",
  );
  await expect(editor.getByRole("textbox", { name: /^Link for Globex, made / })).toBeVisible();
  page.once("dialog", (dialog) => {
    expect(dialog.defaultValue()).toBe("Globex");
    void dialog.accept("");
  });
  await editor.getByRole("button", { name: /^Rename link for Globex, made / }).click();
  await expect(editor.getByTestId("share-links").getByRole("status")).toHaveText(
    "The link's name was cleared.",
  );
  await expect(editor.getByRole("textbox", { name: /^Link 2, made / })).toBeVisible();
  // Revoke asks first, naming the link; dismissed, it stays.
  const asked = new Promise<string>((resolve) =>
    page.once("dialog", (dialog) => {
      resolve(dialog.message());
      void dialog.dismiss();
    }),
  );
  await editor.getByRole("button", { name: /^Revoke link for Acme, Jane Doe, made / }).click();
  expect(await asked).toBe("Revoke the link for Acme, Jane Doe? Whoever has it sees nothing from now on.");
  await expect(editor.getByTestId("share-link")).toHaveCount(2);

  const stranger = await browser.newContext();
  const visit = await stranger.newPage();
  expect((await visit.goto(await named.inputValue()))?.status()).toBe(200);
  await expect(visit.locator("body")).toContainText("Jo Tailor");
  expect(await visit.content()).not.toContain("Jane Doe");
  await stranger.close();
});

test("revoking a link gives the focus to the next link's Revoke, else the one before's, else Create link", async ({
  page,
}) => {
  await signIn(page, uniqueUser("revoke-focus"));
  const editor = await makeVersion(page, "Three links");
  const links = editor.getByTestId("share-link");
  for (const count of [1, 2, 3]) {
    await editor.getByRole("button", { name: "Create link" }).click();
    await expect(links).toHaveCount(count);
  }
  // Listed newest first, numbered from the oldest: links 3, 2, 1.
  const revoke = async (n: number, left: number) => {
    page.once("dialog", (dialog) => void dialog.accept());
    await editor.getByRole("button", { name: new RegExp(`^Revoke link ${n},`) }).click();
    await expect(links).toHaveCount(left);
  };
  await revoke(2, 2);
  // The next one: link 1, which is still link 1.
  await expect(links.last().getByRole("button", { name: /^Revoke link 1,/ })).toBeFocused();
  await revoke(1, 1);
  // None after it: the one before, once link 3, now the only one.
  await expect(links.getByRole("button", { name: /^Revoke link 1,/ })).toBeFocused();
  await revoke(1, 0);
  await expect(editor.getByRole("button", { name: "Create link" })).toBeFocused();
});

test("a version's or a link's create whose answer was lost is sent again with its Idempotency-Key: one of each, not two", async ({
  page,
}) => {
  await signIn(page, uniqueUser("lost-version-answer"));
  const keys: Record<string, string[]> = { "versions.create": [], "links.create": [] };
  // Each create's first call reaches the server and is written; its answer never reaches the page.
  await page.route(/\/api\/trpc\/(versions|links)\.create/, async (route) => {
    const procedure = new URL(route.request().url()).pathname.split("/").pop()!;
    const sent = keys[procedure]!;
    sent.push(route.request().headers()["idempotency-key"] ?? "");
    const response = await route.fetch();
    if (sent.length === 1) await route.abort("connectionreset");
    else await route.fulfill({ response });
  });
  await page.getByRole("button", { name: "Manage versions" }).click();
  const versions = page.getByTestId("versions");
  await versions.getByLabel("Name of the new version").fill("Sent twice");
  await versions.getByRole("button", { name: "Create version" }).click();
  await expect(versions.getByRole("status").first()).toContainText("Could not reach the server");
  await versions.getByRole("button", { name: "Create version" }).click();
  const editor = page.getByTestId("version-editor");
  await expect(editor.getByRole("heading", { name: "Version “Sent twice”" })).toBeVisible();
  await expect(versions.getByTestId("version")).toHaveCount(1);

  await editor.getByRole("button", { name: "Create link" }).click();
  const links = page.getByTestId("share-links");
  await expect(links.getByRole("status")).toContainText("Could not reach the server");
  await editor.getByRole("button", { name: "Create link" }).click();
  await expect(links.getByRole("status")).toHaveText("Link made: copy it and send it.");
  await expect(editor.getByTestId("share-link")).toHaveCount(1);
  for (const sent of Object.values(keys)) {
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(sent[1]).toBe(sent[0]);
  }
});

test("a version deleted, or a link revoked, after its create's answer was lost is made anew by the same create, not answered with the one gone", async ({
  page,
}) => {
  await signIn(page, uniqueUser("lost-then-deleted"));
  // Each create's first call is written; its answer never reaches the page.
  const calls: Record<string, number> = { "versions.create": 0, "links.create": 0 };
  await page.route(/\/api\/trpc\/(versions|links)\.create/, async (route) => {
    const procedure = new URL(route.request().url()).pathname.split("/").pop()!;
    const response = await route.fetch();
    if (++calls[procedure]! === 1) await route.abort("connectionreset");
    else await route.fulfill({ response });
  });
  page.on("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Manage versions" }).click();
  const versions = page.getByTestId("versions");
  await versions.getByLabel("Name of the new version").fill("Acme");
  await versions.getByRole("button", { name: "Create version" }).click();
  await expect(versions.getByRole("status").first()).toContainText("Could not reach the server");
  // Read again, the list shows the version that create made; the person deletes it and makes "Acme" anew.
  await page.reload();
  await page.getByRole("button", { name: "Manage versions" }).click();
  await expect(versions.getByTestId("version")).toHaveCount(1);
  await versions.getByRole("button", { name: /^Delete/ }).click();
  await expect(versions.getByTestId("version")).toHaveCount(0);
  await versions.getByLabel("Name of the new version").fill("Acme");
  await versions.getByRole("button", { name: "Create version" }).click();
  const editor = page.getByTestId("version-editor");
  await expect(editor.getByRole("heading", { name: "Version “Acme”" })).toBeVisible();
  await expect(versions.getByTestId("version")).toHaveCount(1);

  await editor.getByRole("button", { name: "Create link" }).click();
  const links = page.getByTestId("share-links");
  await expect(links.getByRole("status")).toContainText("Could not reach the server");
  await reopenVersion(page, "Acme");
  await expect(editor.getByTestId("share-link")).toHaveCount(1);
  await editor.getByRole("button", { name: /^Revoke link 1,/ }).click();
  await expect(editor.getByTestId("share-link")).toHaveCount(0);
  await editor.getByRole("button", { name: "Create link" }).click();
  await expect(links.getByRole("status")).toHaveText("Link made: copy it and send it.");
  await expect(editor.getByTestId("share-link")).toHaveCount(1);
  expect(calls).toEqual({ "versions.create": 2, "links.create": 2 });
});

test("another version's Edit, or Create version, asks before the open version's typing goes", async ({
  page,
}) => {
  await signIn(page, uniqueUser("switch-version"));
  await makeVersion(page, "First");
  const editor = await createVersion(page, "Second");
  await editor.getByLabel("Headline").fill("Typed and not saved");
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.message());
    void (asked.length === 1 ? dialog.dismiss() : dialog.accept());
  });
  const versions = page.getByTestId("versions");
  // Dismissed: the editor stays with the typing.
  await versions.getByRole("button", { name: "Edit First" }).click();
  await expect.poll(() => asked).toEqual(["Discard what you typed in the open version?"]);
  await expect(editor.getByRole("heading", { name: "Version “Second”" })).toBeVisible();
  await expect(editor.getByLabel("Headline")).toHaveValue("Typed and not saved");
  // Accepted: the typing goes, nothing kept of it; from an editor holding none, Create version asks nothing.
  await versions.getByRole("button", { name: "Edit First" }).click();
  await expect(editor.getByRole("heading", { name: "Version “First”" })).toBeVisible();
  const drafts = () =>
    page.evaluate<string[]>('Object.keys(sessionStorage).filter((key) => key.startsWith("draft:"))');
  expect(await drafts()).toEqual([]);
  await createVersion(page, "Third");
  expect(asked).toHaveLength(2);
  // From one holding typing, Create version asks too; dismissed, nothing is made.
  await editor.getByLabel("Headline").fill("More typing");
  page.removeAllListeners("dialog");
  page.once("dialog", (dialog) => void dialog.dismiss());
  await page.getByRole("form", { name: "New version" }).getByLabel("Name of the new version").fill("Fourth");
  await page.getByRole("button", { name: "Create version" }).click();
  await expect(editor.getByLabel("Headline")).toHaveValue("More typing");
  await expect(versions.getByTestId("version")).toHaveCount(3);
  // A name left empty asks nothing (nothing is made); accepted, the typing goes and the new version opens.
  await page.getByRole("form", { name: "New version" }).getByLabel("Name of the new version").fill("");
  await page.getByRole("button", { name: "Create version" }).click();
  await expect(page.getByRole("form", { name: "New version" })).toContainText("must not be empty");
  await expect(editor.getByLabel("Headline")).toHaveValue("More typing");
  page.once("dialog", (dialog) => void dialog.accept());
  await createVersion(page, "Fourth");
  expect(await drafts()).toEqual([]);
  await versions.getByRole("button", { name: "Edit Third" }).click();
  await expect(editor.getByLabel("Headline")).toHaveValue("");
});

test("a version made while another version's editor was opened meanwhile is listed, and that editor stays open with its typing", async ({
  page,
}) => {
  await signIn(page, uniqueUser("create-then-edit"));
  const editor = await makeVersion(page, "First");
  await editor.getByRole("button", { name: "Close" }).click();
  // The create reaches the server at once; its answer waits until the person has opened "First" again.
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route(/\/api\/trpc\/versions\.create/, async (route) => {
    const response = await route.fetch();
    await answered;
    await route.fulfill({ response });
  });
  const versions = page.getByTestId("versions");
  await versions.getByLabel("Name of the new version").fill("Second");
  await versions.getByRole("button", { name: "Create version" }).click();
  await versions.getByRole("button", { name: "Edit First" }).click();
  await editor.getByLabel("Headline").fill("Typed while the create was under way");
  answer();
  await expect(versions.getByRole("status").first()).toHaveText("Version “Second” made.");
  await expect(versions.getByTestId("version")).toHaveCount(2);
  await expect(editor.getByRole("heading", { name: "Version “First”" })).toBeVisible();
  await expect(editor.getByLabel("Headline")).toHaveValue("Typed while the create was under way");
});

test("a version's Headline and Summary are read with what leaving them empty means, the profile's headline named", async ({
  page,
}) => {
  await signIn(page, uniqueUser("version-hints"));
  await page.getByLabel("Name", { exact: true }).fill("Hint Person");
  await page.getByLabel("Headline").fill("Staff engineer");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  const editor = await makeVersion(page, "Hinted");
  const headline = editor.getByLabel("Headline");
  await expect(headline).toHaveAccessibleDescription("Left empty: the profile’s headline, “Staff engineer”.");
  // Not as a placeholder, which reads as a value typed.
  await expect(headline).not.toHaveAttribute("placeholder");
  await expect(editor.getByLabel("Summary")).toHaveAccessibleDescription(
    "Left empty: the profile’s summary.",
  );
});

for (const theme of THEME_NAMES) {
  test(`a share link's page in ${theme} has its download bar right above the theme's page, at 375 and 1280 px, readable in a dark scheme too`, async ({
    page,
    browser,
  }) => {
    await signIn(page, uniqueUser(`bar-${theme}`));
    await page.getByLabel("Name", { exact: true }).fill("Bar Person");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByText("Profile saved.")).toBeVisible();
    const editor = await makeVersion(page, "Shared");
    await editor.getByLabel("Theme").selectOption(theme);
    await editor.getByRole("button", { name: "Save version" }).click();
    await expect(editor.getByRole("button", { name: "Save version" })).toBeEnabled();
    await editor.getByRole("button", { name: "Create link" }).click();
    const url = await editor.getByRole("textbox", { name: /^Link 1,/ }).inputValue();
    const stranger = await browser.newContext();
    const visit = await stranger.newPage();
    for (const width of [375, 1280]) {
      await visit.setViewportSize({ width, height: 800 });
      await visit.goto(url);
      const bar = await visit.getByRole("navigation", { name: "Download this resume" }).boundingBox();
      // The top of the theme's first box in the flow (not a skip link placed off the page). Evaluated
      // as text: the tests are compiled without the DOM's types.
      const firstTop = `[...document.body.children].find((element) =>
          !["NAV", "STYLE", "SCRIPT"].includes(element.tagName) &&
          !["absolute", "fixed"].includes(getComputedStyle(element).position) &&
          element.getBoundingClientRect().height > 0).getBoundingClientRect().top`;
      const withBar = await visit.evaluate<number>(firstTop);
      // The same page as the theme lays it out alone: the bar and its room taken away.
      const alone = await visit.evaluate<number>(
        `const bar = document.querySelector("body > nav");
        if (bar.nextElementSibling.tagName === "STYLE") bar.nextElementSibling.remove();
        bar.remove();
        ${firstTop}`,
      );
      expect(bar, `${width}`).not.toBeNull();
      expect(bar!.y).toBe(0);
      // Under the bar, the page starts as it would at the top alone: no gap (even's grid put 2em), no overlap.
      expect(Math.abs(withBar - bar!.height - alone), `${width}`).toBeLessThanOrEqual(1);
    }
    // In a dark colour scheme too (even has one), the bar's words and links read against its grey.
    await visit.emulateMedia({ colorScheme: "dark" });
    await visit.goto(url);
    const contrasts = await visit.evaluate<number[]>(
      `(() => {
        const luminance = (color) => {
          const [r, g, b] = color.match(/[\\d.]+/g).slice(0, 3).map((v) => {
            const c = Number(v) / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const bar = document.querySelector("body > nav");
        const ground = luminance(getComputedStyle(bar).backgroundColor);
        return [bar, ...bar.querySelectorAll("a")].map((element) => {
          const [dark, light] = [luminance(getComputedStyle(element).color), ground].sort((a, b) => a - b);
          return (light + 0.05) / (dark + 0.05);
        });
      })()`,
    );
    expect(contrasts).toHaveLength(4);
    for (const contrast of contrasts) expect(contrast).toBeGreaterThanOrEqual(4.5);
    await stranger.close();
  });
}

test("revoking a link another tab or app revoked says so and drops it from the list", async ({ page }) => {
  await signIn(page, uniqueUser("revoked-elsewhere"));
  const editor = await makeVersion(page, "One link");
  await editor.getByRole("button", { name: "Create link" }).click();
  const url = await editor.getByRole("textbox", { name: /^Link 1,/ }).inputValue();
  await sql("DELETE FROM resume.share_links WHERE slug = $1", slugOf(url));
  page.once("dialog", (dialog) => void dialog.accept());
  await editor.getByRole("button", { name: /^Revoke link 1,/ }).click();
  await expect(page.getByTestId("share-links").getByRole("status")).toHaveText(
    "That link was already revoked in another tab or app.",
  );
  await expect(editor.getByTestId("share-link")).toHaveCount(0);
});

test.describe("in Los Angeles", () => {
  test.use({ timezoneId: "America/Los_Angeles", locale: "en-US" });

  test("a link's dates are the person's own days, not the UTC ones", async ({ page }) => {
    await signIn(page, uniqueUser("link-dates"));
    let editor = await makeVersion(page, "Dated");
    await editor.getByRole("button", { name: "Create link" }).click();
    const url = await editor.getByRole("textbox", { name: /^Link 1,/ }).inputValue();
    // 03:00 UTC on the 10th is the evening of the 9th in Los Angeles (8 pm in 2026, 7 pm in 2030).
    await sql(
      `UPDATE resume.share_links SET created_at = '2026-03-10T03:00:00Z', expires_at = '2030-03-10T03:00:00Z'
        WHERE slug = $1`,
      slugOf(url),
    );
    editor = await reopenVersion(page, "Dated");
    const link = editor.getByTestId("share-link");
    await expect(link.getByRole("textbox", { name: "Link 1, made Mar 9, 2026" })).toHaveValue(url);
    await expect(link).toContainText("0 views · expires Mar 9, 2030");
    await expect(link).not.toContainText("-03-10");
  });
});

test.describe("at 375 px wide", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the Versions panel fits, is used with the keyboard, and axe finds nothing serious", async ({
    page,
  }) => {
    await signIn(page, uniqueUser("versions-phone"));
    await threeJobs(page);
    const editor = await makeVersion(page, "Phone version");
    await editor.getByRole("button", { name: "Create link" }).click();
    await expect(editor.getByTestId("share-link")).toHaveCount(1);

    // Keyboard only: Tab reaches the checkbox of the first section, Space unticks it, its entries appear.
    const all = editor.getByLabel("All experience, and what I add later");
    await all.focus();
    await page.keyboard.press("Space");
    await expect(editor.getByLabel("Engineer — Alpha Corp")).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(editor.getByLabel("Engineer — Gamma Inc")).toBeFocused();

    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth");
    expect(overflow).toBeLessThanOrEqual(375);
    for (const button of await editor.getByRole("button").all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width, await button.innerText()).toBeLessThanOrEqual(375);
    }
    expect(await versionsViolations(page)).toEqual([]);
    await page.getByRole("region", { name: "Versions" }).screenshot({
      path: path.join(SCREENSHOTS, "versions-panel-375.png"),
    });
  });
});

test("an empty section can be left out of a version before it has entries; the preview says the files list goals", async ({
  page,
}) => {
  await signIn(page, uniqueUser("versions-goals"));
  await threeJobs(page);
  const editor = await makeVersion(page, "No goals");
  await editor.getByLabel("All goals, and what I add later").uncheck();
  await expect(editor.getByText("None yet; what you add later stays out of this version.")).toBeVisible();
  await editor.getByRole("button", { name: "Save version" }).click();
  await expect(editor.getByRole("status").first()).toHaveText("Version saved.");
  await page.getByRole("button", { name: "Close" }).click();
  await createVersion(page, "Everything");

  const created = await page.request.post("/api/trpc/goals.create", {
    data: { description: "Run a marathon", category: "personal" },
  });
  expect(created.status()).toBe(200);
  const versions = (await (await page.request.get("/api/trpc/versions.list")).json()) as {
    result: { data: { items: { id: string; name: string }[] } };
  };
  const textOf = async (name: string) => {
    const { id } = versions.result.data.items.find((version) => version.name === name)!;
    return (await page.request.get(`/me/versions/${id}/resume?format=text`)).text();
  };
  expect(await textOf("No goals")).not.toContain("Run a marathon");
  expect(await textOf("Everything")).toContain("Run a marathon");

  // The theme's page shows no goals: the preview of a version whose files list them says so.
  await page.reload();
  await page.getByRole("button", { name: "Manage versions" }).click();
  for (const [name, says] of [
    ["Everything", true],
    ["No goals", false],
  ] as const) {
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    const opened = page.getByTestId("version-editor");
    await opened.getByRole("button", { name: "Preview" }).click();
    await expect(opened.frameLocator("[data-testid='theme-preview']").locator("body")).toContainText(
      "Alpha Corp",
    );
    await expect(opened.getByText("The page’s theme has no place for goals")).toHaveCount(says ? 1 : 0);
    await opened.getByRole("button", { name: "Close" }).click();
  }
});

test("one version open in two tabs: the later save says it was changed in another tab and keeps its typing", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("versions-two-tabs"));
  const mine = await makeVersion(page, "Backend roles");

  const other = await context.newPage();
  await other.goto("/editor");
  await other.getByRole("button", { name: "Manage versions" }).click();
  await other.getByRole("button", { name: "Edit Backend roles" }).click();
  const theirs = other.getByTestId("version-editor");
  await theirs.getByLabel("Headline").fill("Data engineer");

  await mine.getByLabel("Headline").fill("Platform engineer");
  await mine.getByRole("button", { name: "Save version" }).click();
  await expect(mine.getByRole("status").first()).toHaveText("Version saved.");

  await theirs.getByRole("button", { name: "Save version" }).click();
  await expect(theirs.getByRole("alert")).toContainText(
    "This was changed in another tab or app after you opened it, so nothing was saved.",
  );
  await expect(theirs.getByLabel("Headline")).toHaveValue("Data engineer");
  await expect(other.getByTestId("version")).toContainText("“Platform engineer”");

  // Told, the person saves again: theirs now replaces the first tab's.
  await theirs.getByRole("button", { name: "Save version" }).click();
  await expect(theirs.getByRole("status").first()).toHaveText("Version saved.");
  await expect(theirs.getByRole("alert")).toHaveCount(0);
  await expect(other.getByTestId("version")).toContainText("“Data engineer”");

  // The first tab's list still shows its own save: its delete is refused, and the list shows the version now.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete Backend roles" }).click();
  await expect(page.getByTestId("versions").getByRole("status").first()).toContainText(
    "was changed in another tab or app since this page showed it, so it was not deleted",
  );
  await expect(page.getByTestId("version")).toContainText("“Data engineer”");
});

test("a version whose listed job was deleted while it was open saves without it", async ({ page }) => {
  await signIn(page, uniqueUser("versions-deleted"));
  await threeJobs(page);
  const editor = await makeVersion(page, "Two jobs");
  await editor.getByLabel("All experience, and what I add later").uncheck();
  await editor.getByLabel("Engineer — Beta Labs").uncheck();

  page.once("dialog", (dialog) => void dialog.accept());
  await section(page, "Experience").getByRole("button", { name: "Delete Engineer — Alpha Corp" }).click();
  await expect(section(page, "Experience").getByTestId("experience-entry")).toHaveCount(2);
  await expect(editor.getByLabel("Engineer — Alpha Corp")).toHaveCount(0);

  await editor.getByRole("button", { name: "Save version" }).click();
  await expect(editor.getByRole("status").first()).toHaveText("Version saved.");
  await expect(page.getByTestId("version")).toContainText("1 of 2 entries");
});

test("a version's typing is kept through an expired session: signed in again, its editor opens with it and saves", async ({
  page,
  context,
}) => {
  const user = uniqueUser("version-draft");
  await signIn(page, user);
  const editor = await makeVersion(page, "Kept");
  await editor.getByLabel("Headline").fill("Typed, not saved");
  await context.clearCookies();
  await editor.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "session has expired" }).first()).toBeVisible();

  await page.getByRole("link", { name: "Sign in again" }).click();
  await signIn(page, user);
  const reopened = page.getByTestId("version-editor");
  await expect(reopened.getByRole("heading", { name: "Version “Kept”" })).toBeVisible();
  await expect(reopened.getByLabel("Headline")).toHaveValue("Typed, not saved");
  await reopened.getByRole("button", { name: "Save version" }).click();
  await expect(reopened.getByText("Version saved.")).toBeVisible();

  // Saved: nothing kept, so the page leaves without asking and opens with the panel closed.
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.type());
    void dialog.dismiss();
  });
  await page.reload();
  await expect(page.getByRole("button", { name: "Manage versions" })).toBeVisible();
  expect(dialogs).toEqual([]);
  await page.getByRole("button", { name: "Manage versions" }).click();
  await page.getByRole("button", { name: "Edit Kept" }).click();
  await expect(page.getByTestId("version-editor").getByLabel("Headline")).toHaveValue("Typed, not saved");
});

test("the Versions list counts only the entries a version lists that are still there", async ({ page }) => {
  await signIn(page, uniqueUser("versions-count"));
  await threeJobs(page);
  const editor = await makeVersion(page, "Two jobs");
  await editor.getByLabel("All experience, and what I add later").uncheck();
  await editor.getByLabel("Engineer — Beta Labs").uncheck();
  await editor.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByTestId("version")).toContainText("2 of 3 entries");
  await editor.getByRole("button", { name: "Close" }).click();

  page.on("dialog", (dialog) => void dialog.accept());
  const experience = section(page, "Experience");
  await experience.getByRole("button", { name: "Delete Engineer — Alpha Corp" }).click();
  await expect(experience.getByTestId("experience-entry")).toHaveCount(2);
  await expect(page.getByTestId("version")).toContainText("1 of 2 entries");
  await experience.getByRole("button", { name: "Delete Engineer — Gamma Inc" }).click();
  await expect(experience.getByTestId("experience-entry")).toHaveCount(1);
  await expect(page.getByTestId("version")).toContainText("0 of 1 entry");
});

test("after a version's Delete the focus goes to the next version's Edit, else the one before's, else the new version's name", async ({
  page,
}) => {
  await signIn(page, uniqueUser("versions-delete-focus"));
  await makeVersion(page, "First");
  await page.getByRole("button", { name: "Close" }).click();
  await createVersion(page, "Second");
  await page.getByRole("button", { name: "Close" }).click();
  await createVersion(page, "Third");
  await page.getByRole("button", { name: "Close" }).click();

  page.on("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete Second" }).click();
  await expect(page.getByRole("button", { name: "Edit Third" })).toBeFocused();
  await expect(page.getByTestId("version")).toHaveCount(2);
  await page.getByRole("button", { name: "Delete Third" }).click();
  await expect(page.getByRole("button", { name: "Edit First" })).toBeFocused();
  await expect(page.getByTestId("version")).toHaveCount(1);
  await page.getByRole("button", { name: "Delete First" }).click();
  await expect(page.getByLabel("Name of the new version")).toBeFocused();
  await expect(page.getByText("No versions yet.")).toBeVisible();
});

const SAVE_FIRST = "Save the version first to preview or download it.";
const FILE_BUTTONS = ["Preview", "Download PDF (A4)", "Download PDF (US Letter)", "Download Word"];

test("a version's Preview and downloads wait until what its form shows is saved; its preview follows the entries", async ({
  page,
}) => {
  await signIn(page, uniqueUser("versions-unsaved"));
  await threeJobs(page);
  const editor = await makeVersion(page, "Two jobs");
  const frame = editor.frameLocator("[data-testid='theme-preview']").locator("body");
  await editor.getByRole("button", { name: "Preview" }).click();
  await expect(frame).toContainText("Beta Labs");

  // Unticked and not saved: the page and files would still have Beta Labs, so none is offered.
  await editor.getByLabel("All experience, and what I add later").uncheck();
  await editor.getByLabel("Engineer — Beta Labs").uncheck();
  await expect(editor.getByText(SAVE_FIRST)).toBeVisible();
  for (const name of FILE_BUTTONS) {
    await expect(editor.getByRole("button", { name })).toBeDisabled();
    await expect(editor.getByRole("button", { name })).toHaveAccessibleDescription(SAVE_FIRST);
  }
  await expect(editor.getByTestId("theme-preview")).toHaveCount(0);
  await editor.screenshot({ path: path.join(SCREENSHOTS, "version-unsaved.png") });

  // Back to what is saved: offered again.
  await editor.getByLabel("All experience, and what I add later").check();
  await expect(editor.getByText(SAVE_FIRST)).toHaveCount(0);
  await expect(frame).toContainText("Beta Labs");

  await editor.getByLabel("All experience, and what I add later").uncheck();
  await editor.getByLabel("Engineer — Beta Labs").uncheck();
  await editor.getByRole("button", { name: "Save version" }).click();
  await expect(editor.getByRole("status").first()).toHaveText("Version saved.");
  for (const name of FILE_BUTTONS) await expect(editor.getByRole("button", { name })).toBeEnabled();
  await expect(editor.getByText(SAVE_FIRST)).toHaveCount(0);
  // Shown before the save, the preview is made again from it.
  await expect(frame).toContainText("Gamma Inc");
  await expect(frame).not.toContainText("Beta Labs");
  const [word] = await Promise.all([
    page.waitForEvent("download"),
    editor.getByRole("button", { name: "Download Word" }).click(),
  ]);
  expect(word.suggestedFilename()).toBe("Jo-Tailor-resume-Two-jobs.docx");

  // An entry edited in its section: the version's preview shows it as it is now.
  const experience = section(page, "Experience");
  await experience.getByRole("button", { name: "Edit Engineer — Alpha Corp" }).click();
  await experience.getByLabel("Organization").fill("Alpha Holdings");
  await experience.getByRole("button", { name: "Save experience" }).click();
  await expect(experience.getByRole("button", { name: "Edit Engineer — Alpha Holdings" })).toBeVisible();
  await expect(frame).toContainText("Alpha Holdings");
  await expect(frame).not.toContainText("Alpha Corp");
});

test("a version deleted in another tab while its editor is open: its save says so, keeps the typing and makes it again", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("versions-deleted-elsewhere"));
  const mine = await makeVersion(page, "Backend roles");
  await mine.getByLabel("Headline").fill("Platform engineer");

  await deleteInAnotherTab(context, "Backend roles");

  await mine.getByRole("button", { name: "Save version" }).click();
  await expect(mine.getByRole("alert")).toHaveText(
    "This version was deleted in another tab or app after you opened it, so nothing was saved (its share links went with it). Create it again to keep what you typed, or Close.",
  );
  await expect(mine.getByLabel("Headline")).toHaveValue("Platform engineer");
  await expect(page.getByTestId("version")).toContainText("Deleted in another tab or app");
  await expect(page.getByRole("button", { name: "Edit Backend roles" })).toHaveCount(0);
  await expect(mine.getByText("Create the version again to preview, download or share it.")).toBeVisible();
  for (const name of FILE_BUTTONS) await expect(mine.getByRole("button", { name })).toBeDisabled();
  await expect(mine.getByTestId("share-links")).toHaveCount(0);
  await page
    .getByTestId("versions")
    .screenshot({ path: path.join(SCREENSHOTS, "version-deleted-elsewhere.png") });

  await mine.getByRole("button", { name: "Create version again" }).click();
  await expect(page.getByTestId("versions").getByRole("status").first()).toHaveText(
    "Version “Backend roles” made again.",
  );
  const made = page.getByTestId("version-editor");
  await expect(made.getByLabel("Headline")).toHaveValue("Platform engineer");
  await expect(made.getByRole("alert")).toHaveCount(0);
  await expect(made.getByRole("button", { name: "Save version" })).toBeVisible();
  await expect(page.getByTestId("version")).toHaveCount(1);
  await expect(page.getByTestId("version")).toContainText("“Platform engineer”");
  // Nothing is kept: the page leaves without asking.
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.type());
    void dialog.dismiss();
  });
  await page.reload();
  await expect(page.getByRole("button", { name: "Manage versions" })).toBeVisible();
  expect(dialogs).toEqual([]);
});

test("a version deleted in another tab stays open here, saying so, when a change to another version reads the list again", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("versions-deleted-then-listed"));
  await makeVersion(page, "Frontend roles");
  const mine = await createVersion(page, "Backend roles");
  await mine.getByLabel("Headline").fill("Platform engineer");

  await deleteInAnotherTab(context, "Backend roles");

  page.on("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete Frontend roles" }).click();
  await expect(page.getByText("Version “Frontend roles” deleted.")).toBeVisible();
  await expect(mine.getByRole("alert")).toHaveText(
    "The version you were editing was deleted in another tab or app (its share links went with it). What you typed is in the form: create it again to keep it, or Close.",
  );
  await expect(mine.getByLabel("Headline")).toHaveValue("Platform engineer");
  await expect(page.getByTestId("version")).toContainText("Deleted in another tab or app");
});

test("a version deleted in another tab while this page was away: its typing opens again, to make it again", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("versions-stranded"));
  const mine = await makeVersion(page, "Kept");
  await mine.getByLabel("Headline").fill("Typed, not saved");

  await deleteInAnotherTab(context, "Kept");

  page.on("dialog", (dialog) => void dialog.accept());
  await page.reload();
  const reopened = page.getByTestId("version-editor");
  await expect(reopened.getByRole("alert")).toHaveText(
    "The version you were editing was deleted in another tab or app (its share links went with it). What you typed is in the form: create it again to keep it, or Close.",
  );
  await expect(reopened.getByLabel("Headline")).toHaveValue("Typed, not saved");
  // Reloaded again before deciding, the typing is still there.
  await page.reload();
  await expect(reopened.getByLabel("Headline")).toHaveValue("Typed, not saved");
  await reopened.getByRole("button", { name: "Create version again" }).click();
  await expect(page.getByTestId("version")).toHaveCount(1);
  await expect(page.getByTestId("version")).toContainText("“Typed, not saved”");
  await expect(page.getByRole("button", { name: "Edit Kept" })).toBeVisible();

  // A version open here, found deleted when it is downloaded, says so too; Close drops it.
  await deleteInAnotherTab(context, "Kept");
  const again = page.getByTestId("version-editor");
  await again.getByRole("button", { name: "Download Word" }).click();
  await expect(again.getByRole("alert")).toContainText(
    "The version you were editing was deleted in another tab or app",
  );
  await again.getByRole("button", { name: "Close" }).click();
  await expect(page.getByText("No versions yet.")).toBeVisible();
  await expect(page.getByLabel("Name of the new version")).toBeFocused();
});
