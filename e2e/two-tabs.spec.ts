/**
 * Two tabs of one person (docs/editor.md, "Two tabs"): a save over what the
 * other tab saved after this one opened its form is refused and says so, the
 * typing stays, and saving again is the person's choice.
 */
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { openAddForm, section, signIn, uniqueUser } from "./helpers.ts";

const CHANGED = "This was changed in another tab or app after you opened it, so nothing was saved.";

/** A second tab of the signed-in person, on the editor. */
async function secondTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto("/editor");
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
  return page;
}

async function addHobby(page: Page, name: string) {
  const form = await openAddForm(page, "Hobbies", "hobby");
  await form.getByLabel("Hobby", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(form).toBeHidden();
}

async function saveHeadline(page: Page, headline: string) {
  await page.getByLabel("Headline").fill(headline);
  await page.getByRole("button", { name: "Save profile" }).click();
}

test("the profile: the later tab's save is refused, kept, and goes through when saved again or is discarded", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("two-tabs-profile"));
  await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  const other = await secondTab(context);

  await saveHeadline(page, "Analyst");
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await saveHeadline(other, "Engineer");
  await expect(other.getByRole("alert").filter({ hasText: CHANGED })).toBeVisible();
  await expect(other.getByLabel("Headline")).toHaveValue("Engineer");
  await page.reload();
  await expect(page.getByLabel("Headline")).toHaveValue("Analyst");

  // Told, the person saves again: now theirs replaces the other tab's.
  await other.getByRole("button", { name: "Save profile" }).click();
  await expect(other.getByText("Profile saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Headline")).toHaveValue("Engineer");

  // The other tab saves on from its own save; the first tab's form is now behind, and discards its typing.
  await saveHeadline(other, "Principal Engineer");
  await expect(other.getByText("Profile saved.")).toBeVisible();
  await saveHeadline(page, "Mathematician");
  await expect(page.getByRole("alert").filter({ hasText: CHANGED })).toBeVisible();
  await page.getByRole("button", { name: "Discard my changes" }).click();
  await expect(page.getByLabel("Headline")).toHaveValue("Principal Engineer");
  await expect(page.getByText("Your changes were discarded")).toBeVisible();
  await page.reload(); // no draft left: no question on leaving
  await expect(page.getByLabel("Headline")).toHaveValue("Principal Engineer");
});

test("an entry: a save over the other tab's edit is refused with the typing kept, and a delete of what changed is refused", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("two-tabs-entry"));
  await addHobby(page, "Chess");
  const other = await secondTab(context);
  const theirs = section(other, "Hobbies");

  await theirs.getByRole("button", { name: "Edit Chess" }).click();
  const theirForm = theirs.getByRole("form", { name: "Edit hobby" });
  await theirForm.getByLabel("Hobby", { exact: true }).fill("Speed chess");

  const mine = section(page, "Hobbies");
  await mine.getByRole("button", { name: "Edit Chess" }).click();
  await mine
    .getByRole("form", { name: "Edit hobby" })
    .getByLabel("Hobby", { exact: true })
    .fill("Correspondence chess");
  await mine.getByRole("button", { name: "Save hobby" }).click();
  await expect(mine.getByRole("button", { name: "Edit Correspondence chess" })).toBeVisible();

  await theirForm.getByRole("button", { name: "Save hobby" }).click();
  await expect(theirForm.getByRole("alert")).toContainText(CHANGED);
  await expect(theirForm.getByLabel("Hobby", { exact: true })).toHaveValue("Speed chess");
  // Cancel keeps the other tab's save, which the section now shows.
  await theirForm.getByRole("button", { name: "Cancel" }).click();
  await expect(theirs.getByRole("button", { name: "Edit Correspondence chess" })).toBeVisible();

  // The other tab saves again, and this tab's list is now older than the entry: its delete is refused.
  await theirs.getByRole("button", { name: "Edit Correspondence chess" }).click();
  await theirs.getByLabel("Hobby", { exact: true }).fill("Go");
  await theirs.getByRole("button", { name: "Save hobby" }).click();
  await expect(theirs.getByRole("button", { name: "Edit Go" })).toBeVisible();
  page.on("dialog", (dialog) => void dialog.accept());
  await mine.getByRole("button", { name: "Delete Correspondence chess" }).click();
  await expect(mine.getByText("was changed in another tab or app since this page showed it")).toBeVisible();
  await expect(mine.getByRole("button", { name: "Delete Go" })).toBeVisible();
});

test("a draft reopened after a reload still goes only over the version it was typed over", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("two-tabs-draft"));
  await addHobby(page, "Chess");

  const mine = section(page, "Hobbies");
  await mine.getByRole("button", { name: "Edit Chess" }).click();
  await mine.getByLabel("Hobby", { exact: true }).fill("Blitz chess");

  const other = await secondTab(context);
  const theirs = section(other, "Hobbies");
  await theirs.getByRole("button", { name: "Edit Chess" }).click();
  await theirs.getByLabel("Hobby", { exact: true }).fill("Bughouse chess");
  await theirs.getByRole("button", { name: "Save hobby" }).click();
  await expect(theirs.getByRole("button", { name: "Edit Bughouse chess" })).toBeVisible();

  // The reload reads the entry as the other tab saved it; the draft reopens with what was typed before.
  page.on("dialog", (dialog) => void dialog.accept());
  await page.reload();
  const reopened = mine.getByRole("form", { name: "Edit hobby" });
  await expect(reopened.getByLabel("Hobby", { exact: true })).toHaveValue("Blitz chess");
  await reopened.getByRole("button", { name: "Save hobby" }).click();
  await expect(reopened.getByRole("alert")).toContainText(CHANGED);
});

test("an entry deleted in another tab: its open form keeps the typing and adds it again; a second delete says it is gone", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("two-tabs-deleted"));
  await addHobby(page, "Chess");
  await addHobby(page, "Go");
  const other = await secondTab(context);
  other.on("dialog", (dialog) => void dialog.accept());
  page.on("dialog", (dialog) => void dialog.accept());

  const mine = section(page, "Hobbies");
  await mine.getByRole("button", { name: "Edit Chess" }).click();
  const form = mine.getByRole("form", { name: "Edit hobby" });
  await form.getByLabel("Hobby", { exact: true }).fill("Blitz chess");
  await section(other, "Hobbies").getByRole("button", { name: "Delete Chess" }).click();
  await expect(section(other, "Hobbies").getByRole("button", { name: "Edit Chess" })).toBeHidden();

  await form.getByRole("button", { name: "Save hobby" }).click();
  await expect(form.getByRole("alert")).toContainText(
    "This hobby was deleted in another tab or app after you opened it, so nothing was saved.",
  );
  await expect(form.getByLabel("Hobby", { exact: true })).toHaveValue("Blitz chess");
  // The preview has reloaded without the deleted entry; the form stays, to add it again.
  await expect(page.getByTestId("preview")).not.toContainText("Chess");
  await form.getByRole("button", { name: "Add hobby again" }).click();
  await expect(form).toBeHidden();
  await expect(mine.getByTestId("hobbies-entry")).toHaveText([/Go/, /Blitz chess/]);
  await expect(mine.getByRole("button", { name: "Add hobby", exact: true })).toBeFocused();

  // The other tab still lists Go as it was; this tab deletes it first.
  await mine.getByRole("button", { name: "Delete Go" }).click();
  await expect(mine.getByRole("button", { name: "Edit Go" })).toBeHidden();
  await section(other, "Hobbies").getByRole("button", { name: "Delete Go" }).click();
  await expect(section(other, "Hobbies").getByRole("status")).toHaveText(
    "“Go” was already deleted in another tab or app.",
  );
  await expect(section(other, "Hobbies").getByTestId("hobbies-entry")).toHaveText([/Blitz chess/]);
  await expect(section(other, "Hobbies").getByRole("alert")).toHaveCount(0);
});

test("a save sent again after its answer was lost is saved, not refused as changed elsewhere, though the service trimmed what it stored", async ({
  page,
}) => {
  await signIn(page, uniqueUser("two-tabs-lost-answer"));
  await addHobby(page, "Chess");
  await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();

  // The first write of each reaches the server and is written; its answer never reaches the page.
  const lost = new Set<string>();
  await page.route(/\/api\/trpc\/(hobbies\.replace|profile\.put)/, async (route) => {
    const procedure = new URL(route.request().url()).pathname.split("/").pop()!;
    await route.fetch();
    if (lost.has(procedure)) return route.continue();
    lost.add(procedure);
    await route.abort("connectionreset");
  });

  const mine = section(page, "Hobbies");
  await mine.getByRole("button", { name: "Edit Chess" }).click();
  const form = mine.getByRole("form", { name: "Edit hobby" });
  await form.getByLabel("Hobby", { exact: true }).fill("Blitz chess ");
  await form.getByRole("button", { name: "Save hobby" }).click();
  await expect(form.getByRole("alert")).toContainText("Could not reach the server");
  await form.getByRole("button", { name: "Save hobby" }).click();
  await expect(form).toBeHidden();
  await expect(mine.getByRole("status")).toHaveText("Saved.");
  await expect(mine.getByTestId("hobbies-entry")).toHaveText([/Blitz chess/]);

  await page.getByLabel("Headline").fill(" Analyst");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Could not reach the server" })).toBeVisible();
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0);
  expect([...lost].sort()).toEqual(["hobbies.replace", "profile.put"]);
  await page.reload(); // no draft left: no question on leaving
  await expect(page.getByLabel("Headline")).toHaveValue("Analyst");
});

test("an entry deleted in another tab while this page was away: the typing reopens in the Add form, to add it again", async ({
  page,
  context,
}) => {
  await signIn(page, uniqueUser("two-tabs-stranded"));
  await addHobby(page, "Chess");
  const mine = section(page, "Hobbies");
  await mine.getByRole("button", { name: "Edit Chess" }).click();
  await mine.getByLabel("Hobby", { exact: true }).fill("Blitz chess");

  const other = await secondTab(context);
  other.on("dialog", (dialog) => void dialog.accept());
  await section(other, "Hobbies").getByRole("button", { name: "Delete Chess" }).click();
  await expect(section(other, "Hobbies").getByText("No hobbies yet.")).toBeVisible();

  page.on("dialog", (dialog) => void dialog.accept());
  await page.reload();
  await expect(mine.getByRole("alert")).toHaveText(
    "The hobby you were editing was deleted in another tab or app. What you typed is in the form below: add it again, or Cancel.",
  );
  const form = mine.getByRole("form", { name: "Add hobby" });
  await expect(form.getByLabel("Hobby", { exact: true })).toHaveValue("Blitz chess");
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(mine.getByTestId("hobbies-entry")).toHaveText([/Blitz chess/]);
  await expect(mine.getByRole("alert")).toHaveCount(0);
  await page.reload(); // nothing stranded is left: no form reopens
  await expect(mine.getByRole("button", { name: "Edit Blitz chess" })).toBeVisible();
  await expect(mine.getByRole("form", { name: "Add hobby" })).toBeHidden();
});
