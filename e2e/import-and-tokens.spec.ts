import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { openAddForm, section, severeViolations, signIn, sql, uniqueUser } from "./helpers.ts";

const WORK_RESUME = {
  basics: { name: "Ada Lovelace", label: "Analyst", image: "https://ada.example/me.png" },
  work: [
    { name: "Analytical Engines", position: "Programmer", startDate: "1842-01" },
    { name: "Babbage & Co", position: "Translator", startDate: "1840", endDate: "1842" },
  ],
  skills: [{ name: "Mathematics", level: "Master" }],
  volunteer: [{ organization: "Society" }],
};

/** Chooses a file of `content`: a string as it is, anything else as JSON. */
async function chooseFile(page: Page, name: string, content: unknown) {
  const text = typeof content === "string" ? content : JSON.stringify(content);
  await page
    .getByLabel("Resume file")
    .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
}

/** A REST call with a bearer token, from outside the page. */
async function restGet(page: Page, path: string, token: string) {
  return page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
}

test("import shows what it replaces, changes nothing on cancel or on a refused file, and replaces on confirm", async ({
  page,
}) => {
  await signIn(page, uniqueUser("import"));
  await page.getByLabel("Name", { exact: true }).fill("Someone Before");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();

  const importButton = page.getByRole("button", { name: "Import…" });
  await importButton.click();
  const panel = page.getByRole("region", { name: "Import a resume" });
  await expect(page.getByLabel("Resume file")).toBeFocused();
  await chooseFile(page, "ada.json", WORK_RESUME);
  const summary = panel.getByRole("table", { name: "What will be replaced" });
  await expect(summary.getByRole("row", { name: /Profile/ })).toHaveText(/Profile\s*1\s*1/);
  await expect(summary.getByRole("row", { name: /Experience/ })).toHaveText(/Experience\s*0\s*2/);
  await expect(summary.getByRole("row", { name: /Skills/ })).toHaveText(/Skills\s*0\s*1/);
  expect(
    await severeViolations(new AxeBuilder({ page }).include("section[aria-labelledby='import-heading']")),
  ).toEqual([]);

  await panel.getByRole("button", { name: "Cancel" }).click();
  await expect(panel).toBeHidden();
  await expect(importButton).toBeFocused();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Someone Before");

  await importButton.click();
  await chooseFile(page, "broken.json", { work: [{ name: "X", position: "Y", startDate: "June 1840" }] });
  await panel.getByRole("button", { name: "Replace my resume" }).click();
  await expect(panel.getByRole("alert")).toContainText("nothing was changed");
  await expect(panel.getByRole("alert")).toContainText("work[0].startDate");
  await expect(section(page, "Experience").getByTestId("experience-entry")).toHaveCount(0);
  // What JSON reading would change in silence: refused as the file is chosen, before any replace.
  await chooseFile(
    page,
    "twice.json",
    '{"basics": {"name": "Ada", "name": "Augusta"}, "skills": [{"name": "Maths", "x-years": 3.0000000000000001}]}',
  );
  const refused = panel.getByRole("alert");
  await expect(refused).toContainText("twice.json would not be read as it is written");
  await expect(refused.getByRole("listitem")).toHaveText([
    "basics.name: is given more than once: keep one",
    'skills[0]["x-years"]: 3.0000000000000001 would be read as 3: write it with fewer digits, or as text in quotes',
  ]);
  await expect(panel.getByRole("button", { name: "Replace my resume" })).toBeDisabled();
  // Let go, so that the same file chosen again once fixed is read again.
  await expect(page.getByLabel("Resume file")).toHaveValue("");

  await chooseFile(page, "ada.json", WORK_RESUME);
  await expect(
    panel.getByRole("list", {
      name: /not shown or edited here, and left out of the PDF, Word and text files/,
    }),
  ).toHaveText(/1 volunteer entry.*picture/);
  await panel.getByRole("button", { name: "Replace my resume" }).click();
  await expect(panel.getByRole("status")).toHaveText("Imported.");
  // The button that had the focus is disabled now: the panel's Close has it.
  await expect(panel.getByRole("button", { name: "Close" })).toBeFocused();
  // A job the file dated in years alone ("1840" to "1842") reads in years; one with a month, with months.
  await expect(section(page, "Experience").getByTestId("experience-entry")).toHaveText([
    /Programmer — Analytical Engines\s*Jan 1842 – Present/,
    /Translator — Babbage & Co\s*1840 – 1842/,
  ]);
  await expect(page.getByTestId("preview")).toContainText("Ada Lovelace");
  await expect(page.getByTestId("preview")).toContainText("1840 – 1842");

  await page.getByRole("button", { name: "Download…" }).click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "JSON Resume (.json)" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("Ada-Lovelace-resume.json");
  const exported = JSON.parse(await readFile((await download.path())!, "utf8"));
  expect(exported.basics.name).toBe("Ada Lovelace");
  expect(exported.work).toEqual(WORK_RESUME.work);
  // The import is given back as it came: "Master" and no x-category, as the file had them.
  expect(exported.skills).toEqual(WORK_RESUME.skills);
  expect(exported.volunteer).toEqual(WORK_RESUME.volunteer);
});

/** A JSON Resume document with a phone, and parts the editor has no place for: a picture, a profile without a URL, volunteering. */
const NEW_RESUME = {
  basics: {
    name: "New Name",
    label: "Imported headline",
    summary: "Imported summary.",
    phone: "555-0100",
    image: "https://new.example/me.png",
    profiles: [{ network: "Twitter", username: "newname" }],
  },
  volunteer: [{ organization: "Food bank", position: "Driver" }],
};

test("before a replace the dialog tells what the editor will not show; after it every form shows the new resume", async ({
  page,
}) => {
  await signIn(page, uniqueUser("reload"));
  await page.getByLabel("Name", { exact: true }).fill("Old Name");
  await page.getByLabel("Headline").fill("Old headline");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  // A form left open with a draft of the old resume.
  const staleForm = await openAddForm(page, "Experience", "experience");
  await staleForm.getByLabel("Title", { exact: true }).fill("Stale title");

  await page.getByRole("button", { name: "Import…" }).click();
  const panel = page.getByRole("region", { name: "Import a resume" });
  await chooseFile(page, "new.json", NEW_RESUME);
  const unshown = panel.getByRole("list", { name: /not shown or edited here/ });
  await expect(unshown.getByRole("listitem")).toHaveText(["1 volunteer entry", "picture", "Twitter profile"]);
  expect(
    await severeViolations(new AxeBuilder({ page }).include("section[aria-labelledby='import-heading']")),
  ).toEqual([]);

  await panel.getByRole("button", { name: "Replace my resume" }).click();
  await expect(panel.getByRole("status")).toHaveText("Imported.");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("New Name");
  await expect(page.getByLabel("Phone")).toHaveValue("555-0100");
  await expect(page.getByLabel("Headline")).toHaveValue("Imported headline");
  await expect(page.getByLabel("Summary", { exact: true })).toHaveValue("Imported summary.");
  await expect(staleForm).toBeHidden();
  const addForm = await openAddForm(page, "Experience", "experience");
  await expect(addForm.getByLabel("Title", { exact: true })).toHaveValue("");
  await addForm.getByRole("button", { name: "Cancel" }).click();

  await page.getByLabel("Email").fill("new@example.org");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  const preview = page.getByTestId("preview");
  await expect(preview).toContainText("new@example.org");
  await expect(preview).toContainText("New Name");
  await expect(preview).toContainText("Imported headline");
  await expect(preview).toContainText("Imported summary.");
  await expect(preview).not.toContainText("Old Name");

  await page.reload();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("New Name");
  await expect(page.getByLabel("Email")).toHaveValue("new@example.org");
});

test("a resume.json import says what an earlier JSON Resume import kept stays, and keeps it", async ({
  page,
}) => {
  await signIn(page, uniqueUser("restore"));
  await page.getByRole("button", { name: "Import…" }).click();
  const panel = page.getByRole("region", { name: "Import a resume" });
  await chooseFile(page, "new.json", NEW_RESUME);
  await panel.getByRole("button", { name: "Replace my resume" }).click();
  await expect(panel.getByRole("status")).toHaveText("Imported.");

  const backup = { profile: { name: "Restored Name" }, experience: [] };
  await chooseFile(page, "resume.json", backup);
  await expect(panel.getByLabel("Format")).toHaveValue("json");
  const kept = panel.getByRole("list", { name: /Kept from your earlier JSON Resume import/ });
  await expect(kept.getByRole("listitem")).toHaveText(["1 volunteer entry", "picture", "Twitter profile"]);
  await panel.getByRole("button", { name: "Replace my resume" }).click();
  await expect(panel.getByRole("status")).toHaveText("Imported.");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Restored Name");

  // Still there after the restore: chosen again, the file is told the same.
  await chooseFile(page, "resume.json", backup);
  await expect(kept.getByRole("listitem")).toHaveText(["1 volunteer entry", "picture", "Twitter profile"]);
});

test("a file past the import's 1 MiB limit is said in words, as chosen or as sent, and changes nothing", async ({
  page,
}) => {
  await signIn(page, uniqueUser("large"));
  await page.getByRole("button", { name: "Import…" }).click();
  const panel = page.getByRole("region", { name: "Import a resume" });
  const MiB = 1024 * 1024;
  /** A JSON Resume file of exactly `bytes` bytes. */
  const fileOf = (bytes: number) => {
    const empty = JSON.stringify({ basics: { name: "Big", summary: "" } });
    return JSON.stringify({ basics: { name: "Big", summary: "x".repeat(bytes - empty.length) } });
  };

  await chooseFile(page, "huge.json", fileOf(MiB + 1));
  await expect(panel.getByRole("alert")).toHaveText(
    "huge.json is 1.1 MiB: an import takes a file of at most 1 MiB. Nothing was changed.",
  );
  await expect(panel.getByRole("button", { name: "Replace my resume" })).toBeDisabled();

  // Within the limit as a file, past it once wrapped in the request: the server's 413, in words.
  await chooseFile(page, "almost.json", fileOf(MiB - 8));
  await panel.getByRole("button", { name: "Replace my resume" }).click();
  await expect(panel.getByRole("alert")).toHaveText(
    "The file is larger than an import takes (at most 1 MiB as sent), so nothing was changed. " +
      "Make it smaller and try again.",
  );
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
});

test("a file chosen while the one before is still being read is the one shown and imported", async ({
  page,
}) => {
  await signIn(page, uniqueUser("choices"));
  await page.getByRole("button", { name: "Import…" }).click();
  const panel = page.getByRole("region", { name: "Import a resume" });
  // The browser's read of slow.json ends only when the test says, after the next file's read.
  await page.evaluate(() => {
    const read = File.prototype.text;
    // The page's own globals, which this file (typed as a Node program) does not know.
    const held = globalThis as unknown as {
      endSlowRead?: () => Promise<void>;
      requestAnimationFrame(next: () => void): void;
    };
    File.prototype.text = function (this: File) {
      if (this.name !== "slow.json") return read.call(this);
      return new Promise<string>((resolve) => {
        held.endSlowRead = async () => {
          resolve(await read.call(this));
          // The panel's handling of the read, and React's render of it, are done two frames on.
          for (let frame = 0; frame < 2; frame++)
            await new Promise<void>((next) => held.requestAnimationFrame(next));
        };
      });
    };
  });
  await chooseFile(page, "slow.json", WORK_RESUME);
  await chooseFile(page, "fast.json", { basics: { name: "Fast" }, skills: [{ name: "Chess" }] });
  const summary = panel.getByRole("table", { name: "What will be replaced" });
  await expect(summary.getByRole("row", { name: /Skills/ })).toHaveText(/Skills\s*0\s*1/);
  await page.evaluate(() => (globalThis as unknown as { endSlowRead: () => Promise<void> }).endSlowRead());
  await expect(summary.getByRole("row", { name: /Experience/ })).toHaveText(/Experience\s*0\s*0/);

  await panel.getByRole("button", { name: "Replace my resume" }).click();
  await expect(panel.getByRole("status")).toHaveText("Imported.");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Fast");
  await expect(section(page, "Experience").getByTestId("experience-entry")).toHaveCount(0);
});

test("API tokens: made with a name, scope and expiry, shown once, copied, listed, used and revoked", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, uniqueUser("tokens"));
  const panel = page.getByRole("region", { name: "API tokens" });
  await panel.getByRole("button", { name: "Manage API tokens" }).click();
  await expect(panel.getByText("No tokens yet.")).toBeVisible();

  await panel.getByRole("button", { name: "Create token" }).click();
  await expect(panel.getByText("must not be empty")).toBeVisible();

  await panel.getByLabel("Token name").fill("laptop script");
  await panel.getByLabel("Read and change my resume").check();
  await panel.getByLabel("Expires after").selectOption("30");
  await panel.getByRole("button", { name: "Create token" }).click();
  const secret = panel.getByLabel(/shown only now/);
  await expect(secret).toHaveValue(/^rsm_/);
  const token = await secret.inputValue();
  await panel.getByRole("button", { name: "Copy" }).click();
  await expect(panel.getByRole("status")).toHaveText("Copied to the clipboard.");
  expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(token);
  expect(await severeViolations(new AxeBuilder({ page }).include("[data-testid='access-tokens']"))).toEqual(
    [],
  );

  const listed = panel.getByTestId("access-token");
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText("laptop script");
  await expect(listed).toContainText("read and change");
  await expect(listed).toContainText("never used");

  expect((await restGet(page, "/me/resume", token)).status()).toBe(200);
  await panel.getByRole("button", { name: "Done" }).click();
  await expect(panel.getByLabel(/shown only now/)).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);

  page.once("dialog", (dialog) => void dialog.accept());
  await panel.getByRole("button", { name: "Revoke laptop script" }).click();
  await expect(panel.getByRole("status")).toHaveText("Token “laptop script” revoked.");
  await expect(panel.getByText("No tokens yet.")).toBeVisible();
  expect((await restGet(page, "/me/resume", token)).status()).toBe(401);
});

/** Opens the API tokens panel and returns it. */
async function openTokens(page: Page) {
  const panel = page.getByRole("region", { name: "API tokens" });
  await panel.getByRole("button", { name: "Manage API tokens" }).click();
  await expect(panel.getByLabel("Token name")).toBeFocused();
  return panel;
}

/** Makes a token named `name` in the open panel and returns its secret. */
async function makeToken(page: Page, name: string) {
  const panel = page.getByRole("region", { name: "API tokens" });
  await panel.getByLabel("Token name").fill(name);
  await panel.getByRole("button", { name: "Create token" }).click();
  await expect(panel.getByLabel(`Token “${name}”: shown only now`)).toHaveValue(/^rsm_/);
  return panel.getByLabel(/shown only now/).inputValue();
}

/** The id of the person's token named `name`, from the editor's own API. */
async function tokenId(page: Page, name: string) {
  const answer = (await (await page.request.get("/api/trpc/tokens.list")).json()) as {
    result: { data: { items: { id: string; name: string }[] } };
  };
  return answer.result.data.items.find((token) => token.name === name)!.id;
}

test("an expired token says it no longer works and how to free its place", async ({ page }) => {
  await signIn(page, uniqueUser("expired-token"));
  let panel = await openTokens(page);
  const token = await makeToken(page, "old script");
  await makeToken(page, "new script");
  await sql(
    "UPDATE resume.access_tokens SET expires_at = now() - interval '1 hour' WHERE id = $1",
    await tokenId(page, "old script"),
  );
  expect((await restGet(page, "/me/resume", token)).status()).toBe(401);

  await page.reload();
  panel = await openTokens(page);
  const [newer, older] = [
    panel.getByTestId("access-token").first(),
    panel.getByTestId("access-token").last(),
  ];
  await expect(older).toContainText("old script");
  await expect(older).toContainText(/expired .*\d{4} — no longer works; revoke it to free its place/);
  await expect(older).not.toContainText("expires");
  await expect(older.getByRole("button", { name: "Revoke expired token old script" })).toBeVisible();
  await expect(newer).toContainText(/expires .*\d{4}/);
  await expect(newer).not.toContainText("expired");
  expect(await severeViolations(new AxeBuilder({ page }).include("[data-testid='access-tokens']"))).toEqual(
    [],
  );
});

test("the new token's Done gives the focus to Create token", async ({ page }) => {
  await signIn(page, uniqueUser("token-done"));
  const panel = await openTokens(page);
  await makeToken(page, "laptop");
  await panel.getByRole("button", { name: "Done" }).click();
  await expect(panel.getByLabel(/shown only now/)).toHaveCount(0);
  await expect(panel.getByRole("button", { name: "Create token" })).toBeFocused();
});

test("revoking a token gives the focus to the next token's Revoke, else the one before's, else Create token", async ({
  page,
}) => {
  await signIn(page, uniqueUser("token-focus"));
  const panel = await openTokens(page);
  await makeToken(page, "first");
  await makeToken(page, "second");
  const revoke = async (name: string) => {
    page.once("dialog", (dialog) => void dialog.accept());
    await panel.getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(panel.getByRole("status")).toHaveText(`Token “${name}” revoked.`);
  };
  // Listed newest first: second, first.
  await revoke("second");
  await expect(panel.getByRole("button", { name: "Revoke first" })).toBeFocused();
  await makeToken(page, "third");
  // Third, first: none after first, so the one before.
  await revoke("first");
  await expect(panel.getByRole("button", { name: "Revoke third" })).toBeFocused();
  await revoke("third");
  await expect(panel.getByText("No tokens yet.")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Create token" })).toBeFocused();
});

test("revoking a token another tab or app revoked says so and drops it from the list", async ({ page }) => {
  const user = uniqueUser("token-revoked-elsewhere");
  await signIn(page, user);
  const panel = await openTokens(page);
  await makeToken(page, "script");
  await sql("DELETE FROM resume.access_tokens WHERE user_id = $1", user);
  page.once("dialog", (dialog) => void dialog.accept());
  await panel.getByRole("button", { name: "Revoke script" }).click();
  await expect(panel.getByRole("status")).toHaveText(
    "Token “script” was already revoked in another tab or app.",
  );
  await expect(panel.getByText("No tokens yet.")).toBeVisible();
});

test.describe("in Los Angeles", () => {
  test.use({ timezoneId: "America/Los_Angeles", locale: "en-US" });

  test("a token's dates are the person's own days, not the UTC ones", async ({ page }) => {
    await signIn(page, uniqueUser("token-dates"));
    await openTokens(page);
    await makeToken(page, "dated");
    // 03:00 and 04:00 UTC are the evening of the day before in Los Angeles.
    await sql(
      `UPDATE resume.access_tokens SET created_at = '2026-03-10T03:00:00Z', expires_at = '2030-03-10T03:00:00Z',
              last_used_at = '2026-03-11T04:00:00Z'
        WHERE id = $1`,
      await tokenId(page, "dated"),
    );
    await page.reload();
    const panel = await openTokens(page);
    const listed = panel.getByTestId("access-token");
    await expect(listed).toContainText("made Mar 9, 2026");
    await expect(listed).toContainText("last used Mar 10, 2026");
    await expect(listed).toContainText("expires Mar 9, 2030");
    await expect(listed).not.toContainText("-03-1");
  });
});

test.describe("at 375 px wide", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the import and token panels fit a phone-sized screen", async ({ page }) => {
    await signIn(page, uniqueUser("narrow"));
    // On a phone Import… is in the top bar's More… menu.
    await page.getByRole("button", { name: "More…" }).click();
    await page.getByRole("button", { name: "Import…" }).click();
    await chooseFile(page, "ada.json", WORK_RESUME);
    await expect(page.getByRole("table", { name: "What will be replaced" })).toBeVisible();
    await page.getByRole("button", { name: "Manage API tokens" }).click();
    await page.getByLabel("Token name").fill("phone");
    await page.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByLabel(/shown only now/)).toHaveValue(/^rsm_/);
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
