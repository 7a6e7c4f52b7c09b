import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import AxeBuilder from "@axe-core/playwright";
import mammoth from "mammoth";
import { expect, test, type Page } from "@playwright/test";
import { THEME_NAMES } from "@app/resume/client";
import { env } from "../scripts/env.ts";
import { hasPoppler, pdfInfo, pdfText } from "../test/documents.ts";
import { openAddForm, section, signIn, uniqueUser } from "./helpers.ts";

const artifacts = path.join(env.DATA_DIR, "test-results", "screenshots");

/** Console errors and page errors of a page, to assert there are none. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function fillProfile(page: Page, name: string) {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Headline").fill("Staff Engineer");
  await page.getByLabel("Email").fill("person@example.org");
  await page.getByLabel("Summary", { exact: true }).fill("Builds reliable systems.");
  await page.getByRole("button", { name: "Add link" }).click();
  await page.getByLabel("Link 1 name").fill("github");
  await page.getByLabel("Link 1 URL").fill("https://github.com/someone");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
}

async function addEntry(
  page: Page,
  title: string,
  noun: string,
  fill: (form: ReturnType<Page["locator"]>) => Promise<void>,
) {
  const form = await openAddForm(page, title, noun);
  await fill(form);
  await form.getByRole("button", { name: `Add ${noun}`, exact: true }).click();
  await expect(form).toBeHidden();
}

test("a person fills every section, edits and deletes, and finds it all after a reload and in the preview", async ({
  page,
}) => {
  const errors = collectErrors(page);
  await signIn(page, uniqueUser("flow"));
  await fillProfile(page, "Ada Lovelace");

  await addEntry(page, "Experience", "experience", async (form) => {
    await form.getByLabel("Title", { exact: true }).fill("Analyst");
    await form.getByLabel("Organization").fill("Babbage & Co");
    await form.getByLabel("Start date").fill("2018-03-01");
    await form.getByLabel("End date").fill("2020-06-30");
    await form.getByRole("button", { name: "Add responsibility" }).click();
    await form.getByLabel("Responsibilities 1").fill("Second duty");
    await form.getByRole("button", { name: "Add responsibility" }).click();
    await form.getByLabel("Responsibilities 2").fill("First duty");
    await form.getByRole("button", { name: "Move responsibility 2 up" }).click();
  });
  await addEntry(page, "Experience", "experience", async (form) => {
    await form.getByLabel("Title", { exact: true }).fill("Lead Engineer");
    await form.getByLabel("Organization").fill("Engine Works");
    await form.getByLabel("Employment type").selectOption("contract");
    await form.getByLabel("Start date").fill("2021-01-01");
    await form.getByLabel("Current role").check();
  });
  await addEntry(page, "Education", "education", async (form) => {
    await form.getByLabel("Degree").fill("BSc Mathematics");
    await form.getByLabel("Institution").fill("University of London");
    await form.getByLabel("Start date").fill("2010-10-01");
  });
  await addEntry(page, "Skills", "skill", async (form) => {
    await form.getByLabel("Skill", { exact: true }).fill("TypeScript");
    await form.getByLabel("Category").selectOption("language");
    await form.getByLabel("Years of experience").fill("6");
  });
  await addEntry(page, "Certifications", "certification", async (form) => {
    await form.getByLabel("Certification", { exact: true }).fill("CKA");
    await form.getByLabel("Issued by").fill("CNCF");
    await form.getByLabel("Issue date").fill("2022-05-01");
  });
  await addEntry(page, "Hobbies", "hobby", async (form) => {
    await form.getByLabel("Hobby", { exact: true }).fill("Chess");
  });
  await addEntry(page, "Hobbies", "hobby", async (form) => {
    await form.getByLabel("Hobby", { exact: true }).fill("Rowing");
  });
  await addEntry(page, "Goals", "goal", async (form) => {
    await form.getByLabel("Goal", { exact: true }).fill("Publish a paper");
    await form.getByLabel("Category").selectOption("career");
  });

  // Edit: the skill's proficiency. Delete: one hobby, after confirming.
  await section(page, "Skills").getByRole("button", { name: "Edit TypeScript" }).click();
  await section(page, "Skills").getByLabel("Proficiency").selectOption("expert");
  await section(page, "Skills").getByRole("button", { name: "Save skill" }).click();
  await expect(section(page, "Skills").getByText("Language · Expert")).toBeVisible();
  page.once("dialog", (dialog) => void dialog.accept());
  await section(page, "Hobbies").getByRole("button", { name: "Delete Chess" }).click();
  await expect(section(page, "Hobbies").getByTestId("hobbies-entry")).toHaveText([/Rowing/]);
  await expect(section(page, "Hobbies").getByRole("status")).toHaveText("Deleted “Chess”.");

  await page.reload();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Ada Lovelace");
  await expect(page.getByLabel("Link 1 URL")).toHaveValue("https://github.com/someone");
  const experience = section(page, "Experience").getByTestId("experience-entry");
  await expect(experience).toHaveCount(2);
  await expect(experience.nth(0)).toContainText("Lead Engineer — Engine Works");
  await expect(experience.nth(1)).toContainText("Analyst — Babbage & Co");
  await expect(section(page, "Hobbies").getByTestId("hobbies-entry")).toHaveText([/Rowing/]);
  await expect(section(page, "Skills").getByText("Language · Expert")).toBeVisible();

  const preview = page.getByTestId("preview");
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Ada Lovelace");
  // In the order of the editor's sections and of the PDF, Word and text files.
  await expect(preview.getByRole("heading", { level: 2 })).toHaveText([
    "Summary",
    "Experience",
    "Education",
    "Skills",
    "Certifications",
    "Hobbies",
    "Goals",
  ]);
  await expect(preview).toContainText("First duty");
  await expect(preview.locator("li", { hasText: "First duty" })).toBeVisible();
  expect(await preview.locator("li").allTextContents()).toEqual(
    expect.arrayContaining(["First duty", "Second duty"]),
  );
  const items = await preview.locator("li").allTextContents();
  expect(items.indexOf("First duty")).toBeLessThan(items.indexOf("Second duty"));
  await expect(preview).toContainText("TypeScript (expert, 6 yrs)");

  await page.screenshot({ path: path.join(artifacts, "editor-filled.png"), fullPage: true });
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("heading", { name: "Profile" })).toBeHidden();
  await page.screenshot({ path: path.join(artifacts, "print-preview.png"), fullPage: true });
  const pdf = await page.pdf({ format: "A4" });
  const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  expect(pages).toBeGreaterThanOrEqual(1);
  expect(pages).toBeLessThanOrEqual(2);
  expect(errors).toEqual([]);
});

test("validation shows messages at the fields, saves nothing, and keeps what was typed", async ({ page }) => {
  await signIn(page, uniqueUser("invalid"));
  const form = await openAddForm(page, "Experience", "experience");
  await form.getByLabel("Organization").fill("Typed Org");
  await form.getByLabel("Start date").fill("2022-05-10");
  await form.getByLabel("End date").fill("2021-01-01");
  await form.getByRole("button", { name: "Add experience", exact: true }).click();

  await expect(form.getByLabel("Title", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("must not be empty")).toBeVisible();
  await expect(form.getByText("must not be before Start date")).toBeVisible();
  await expect(form.getByLabel("Organization")).toHaveValue("Typed Org");
  await expect(form.getByLabel("Start date")).toHaveValue("2022-05-10");

  await page.reload();
  await expect(section(page, "Experience").getByTestId("experience-entry")).toHaveCount(0);
  // The unsaved form comes back with what was typed.
  await expect(section(page, "Experience").getByLabel("Organization")).toHaveValue("Typed Org");
});

test("a date or number the browser cannot read is refused at its field, never saved as none", async ({
  page,
}) => {
  await signIn(page, uniqueUser("unreadable"));
  const form = await openAddForm(page, "Experience", "experience");
  await form.getByLabel("Title", { exact: true }).fill("Junior Dev");
  await form.getByLabel("Organization").fill("OldCo");
  await form.getByLabel("Start date").fill("2018-01-01");
  // Typed as a person types it: February 30th, which the date field shows but cannot read.
  await form.getByLabel("End date").focus();
  await page.keyboard.type("02302019");
  await expect(form.getByLabel("End date")).toHaveValue("");
  await form.getByRole("button", { name: "Add experience", exact: true }).click();
  await expect(form.getByLabel("End date")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("is not a real date: finish it, or clear it")).toBeVisible();
  await expect(section(page, "Experience").getByTestId("experience-entry")).toHaveCount(0);

  await form.getByLabel("End date").fill("2019-02-28");
  await form.getByRole("button", { name: "Add experience", exact: true }).click();
  await expect(section(page, "Experience").getByTestId("experience-entry")).toContainText("Feb 2019");

  const skill = await openAddForm(page, "Skills", "skill");
  await skill.getByLabel("Skill", { exact: true }).fill("Go");
  await skill.getByLabel("Category").selectOption("language");
  await skill.getByLabel("Years of experience").focus();
  await page.keyboard.type("1e");
  await skill.getByRole("button", { name: "Add skill", exact: true }).click();
  await expect(skill.getByText("is not a number")).toBeVisible();
  await expect(section(page, "Skills").getByTestId("skills-entry")).toHaveCount(0);
});

test("two links of one name are refused, not saved as one; a select left unchosen says so", async ({
  page,
}) => {
  await signIn(page, uniqueUser("links"));
  await page.getByLabel("Name", { exact: true }).fill("Two Links");
  for (const [i, url] of ["https://github.com/work", "https://github.com/personal"].entries()) {
    await page.getByRole("button", { name: "Add link" }).click();
    await page.getByLabel(`Link ${i + 1} name`).fill("github");
    await page.getByLabel(`Link ${i + 1} URL`).fill(url);
  }
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText('"github" appears twice')).toBeVisible();
  await expect(page.getByText("Profile saved.")).toBeHidden();
  // The rows of the repeated name are the fields refused; the first takes the focus.
  await expect(page.getByLabel("Link 1 name")).toBeFocused();
  await expect(page.getByLabel("Link 2 name")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Link 2 name").fill("github-personal");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Link 2 URL")).toHaveValue("https://github.com/personal");

  const skill = await openAddForm(page, "Skills", "skill");
  await skill.getByLabel("Skill", { exact: true }).fill("Go");
  await skill.getByRole("button", { name: "Add skill", exact: true }).click();
  await expect(skill.locator('[id$="-category-error"]')).toHaveText("choose one");
});

test("a link's refused name is told at its name, a refused URL at its URL, and that field takes the focus", async ({
  page,
}) => {
  await signIn(page, uniqueUser("link-fields"));
  await page.getByLabel("Name", { exact: true }).fill("Link Fields");
  await page.getByRole("button", { name: "Add link" }).click();
  const [name, url] = [page.getByLabel("Link 1 name"), page.getByLabel("Link 1 URL")];
  const save = page.getByRole("button", { name: "Save profile" });

  // A URL with no name: the API puts both at `links.` (the name is the record's key); the name is what is wrong.
  await url.fill("https://github.com/someone");
  await save.click();
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("link names must not be empty");
  await expect(url).not.toHaveAttribute("aria-invalid");
  await expect(url).not.toHaveAttribute("aria-describedby");

  // A name with a URL that is none: the URL is what is wrong.
  await name.fill("github");
  await url.fill("github.com/someone");
  await save.click();
  await expect(url).toBeFocused();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(url).toHaveAccessibleDescription("must be an absolute http(s) URL");
  await expect(name).not.toHaveAttribute("aria-invalid");
  await expect(name).not.toHaveAttribute("aria-describedby");

  // A name repeated once trimmed is refused at the names, not at the second row's URL.
  await url.fill("https://github.com/work");
  await page.getByRole("button", { name: "Add link" }).click();
  await page.getByLabel("Link 2 name").fill("github ");
  await page.getByLabel("Link 2 URL").fill("https://github.com/personal");
  await save.click();
  await expect(name).toBeFocused();
  await expect(page.getByLabel("Link 2 name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Link 2 name")).toHaveAccessibleDescription('"github" appears twice');
  await expect(page.getByLabel("Link 2 URL")).not.toHaveAttribute("aria-invalid");
  await expect(page.getByLabel("Link 2 URL")).not.toHaveAttribute("aria-describedby");

  await page.getByLabel("Link 2 name").fill("github-personal");
  await save.click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
});

test("leaving with typing not saved asks first; signing out asks too, then leaves no draft behind", async ({
  page,
}) => {
  await signIn(page, uniqueUser("leaving"));
  await page.getByLabel("Headline").click();
  await page.getByLabel("Headline").pressSequentially("Typed, not saved");

  const leaving = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const asked = await leaving;
  expect(asked.type()).toBe("beforeunload");
  await asked.dismiss();
  await expect(page.getByLabel("Headline")).toHaveValue("Typed, not saved");

  page.once("dialog", (dialog) => void dialog.dismiss());
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByLabel("Headline")).toHaveValue("Typed, not saved");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  const stored = await page.evaluate<string[]>("Object.keys(sessionStorage)");
  expect(stored.filter((key) => key.startsWith("draft:"))).toEqual([]);
});

test("a saved form lets the page close without asking", async ({ page }) => {
  await signIn(page, uniqueUser("saved"));
  await page.getByLabel("Name", { exact: true }).click();
  await page.getByLabel("Name", { exact: true }).pressSequentially("Saved Person");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.type());
    void dialog.dismiss();
  });
  const closed = page.waitForEvent("close");
  await page.close({ runBeforeUnload: true });
  await closed;
  expect(dialogs).toEqual([]);
});

test("an expired session keeps what was typed; after signing in again it saves", async ({
  page,
  context,
}) => {
  const user = uniqueUser("expired");
  await signIn(page, user);
  const form = await openAddForm(page, "Hobbies", "hobby");
  await form.getByLabel("Hobby", { exact: true }).fill("Kept through sign-in");
  await context.clearCookies();
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "session has expired" }).first()).toBeVisible();
  await expect(form.getByLabel("Hobby", { exact: true })).toHaveValue("Kept through sign-in");

  // "Sign in again" keeps the drafts: leaving through it asks nothing.
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.type());
    void dialog.dismiss();
  });
  await page.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(/\/sign-in\?/);
  expect(dialogs).toEqual([]);
  await signIn(page, user);
  const restored = section(page, "Hobbies").getByRole("form", { name: "Add hobby" });
  await expect(restored.getByLabel("Hobby", { exact: true })).toHaveValue("Kept through sign-in");
  await restored.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(section(page, "Hobbies").getByTestId("hobbies-entry")).toHaveText([/Kept through sign-in/]);
});

test("a create whose answer was lost is sent again with the same Idempotency-Key: one entry, not two", async ({
  page,
}) => {
  await signIn(page, uniqueUser("lost-answer"));
  const keys: string[] = [];
  let lose = true;
  // The first create reaches the server and is written; its answer never reaches the page.
  await page.route("**/api/trpc/hobbies.create*", async (route) => {
    keys.push(route.request().headers()["idempotency-key"] ?? "");
    const response = await route.fetch();
    if (lose) {
      lose = false;
      await route.abort("connectionreset");
    } else {
      await route.fulfill({ response });
    }
  });
  const form = await openAddForm(page, "Hobbies", "hobby");
  await form.getByLabel("Hobby", { exact: true }).fill("Written once");
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(form.getByRole("alert")).toContainText("Could not reach the server");
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(form).toBeHidden();
  await expect(section(page, "Hobbies").getByTestId("hobbies-entry")).toHaveText([/Written once/]);
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
});

test("an entry deleted after its add's answer was lost is added anew by the Add form kept, not answered with the one gone", async ({
  page,
}) => {
  await signIn(page, uniqueUser("lost-then-deleted-entry"));
  let calls = 0;
  // The first add is written; its answer never reaches the page.
  await page.route("**/api/trpc/hobbies.create*", async (route) => {
    const response = await route.fetch();
    if (++calls === 1) await route.abort("connectionreset");
    else await route.fulfill({ response });
  });
  const form = await openAddForm(page, "Hobbies", "hobby");
  await form.getByLabel("Hobby", { exact: true }).fill("Chess");
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(form.getByRole("alert")).toContainText("Could not reach the server");
  // Read again, the list shows the hobby that add made, and the Add form opens again with its typing.
  await page.reload();
  const hobbies = section(page, "Hobbies");
  await expect(hobbies.getByTestId("hobbies-entry")).toHaveText([/Chess/]);
  const kept = hobbies.getByRole("form", { name: "Add hobby" });
  await expect(kept.getByLabel("Hobby", { exact: true })).toHaveValue("Chess");
  page.once("dialog", (dialog) => void dialog.accept());
  await hobbies.getByRole("button", { name: "Delete Chess" }).click();
  await expect(hobbies.getByTestId("hobbies-entry")).toHaveCount(0);
  await kept.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(kept).toBeHidden();
  await expect(hobbies.getByTestId("hobbies-entry")).toHaveText([/Chess/]);
  expect(calls).toBe(2);
});

test("two people never see each other's data", async ({ browser }) => {
  const alice = await browser.newPage();
  await signIn(alice, uniqueUser("alice"));
  await addEntry(alice, "Hobbies", "hobby", async (form) => {
    await form.getByLabel("Hobby", { exact: true }).fill("Alice's secret hobby");
  });
  const bob = await (await browser.newContext()).newPage();
  await signIn(bob, uniqueUser("bob"));
  await expect(section(bob, "Hobbies").getByText("No hobbies yet.")).toBeVisible();
  await expect(bob.getByText("Alice's secret hobby")).toHaveCount(0);
});

test("signed out: the editor sends to sign-in, the API answers 401, sign-out works", async ({
  page,
  request,
}) => {
  await page.goto("/editor");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Feditor|\/sign-in\?next=\/editor/);
  expect((await request.get("/api/trpc/profile.get")).status()).toBe(401);
  expect((await request.get("/me/profile")).status()).toBe(401);

  await signIn(page, uniqueUser("leaver"));
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/editor");
  await expect(page).toHaveURL(/\/sign-in/);
});

/** Chooses `label` in the Download menu; answers the file the browser saved. */
async function downloadFromMenu(page: Page, label: string) {
  await page.getByRole("button", { name: "Download…" }).click();
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("list", { name: "Download as" }).getByRole("button", { name: label }).click(),
  ]);
  return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) };
}

test("the preview and the fields read each block in its own direction, and the preview's headings sit under the editor's Preview heading", async ({
  page,
}) => {
  await signIn(page, uniqueUser("rtl-preview"));
  await page.getByLabel("Name", { exact: true }).fill("Dana Levi");
  await page
    .getByLabel("Summary", { exact: true })
    .fill("בניתי מערכות ב-React Native (2020) עם 3 אנשים\n\nBuilt systems.");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  // Evaluated as text: the tests are compiled without the DOM's types.
  const directionOf = (text: string) =>
    page.evaluate<string>(
      `(() => {
        const block = [...document.querySelectorAll("[data-testid=preview] p")]
          .find((p) => p.textContent.includes(${JSON.stringify(text)}));
        return block ? getComputedStyle(block).direction : "not shown";
      })()`,
    );
  await expect.poll(() => directionOf("בניתי")).toBe("rtl");
  expect(await directionOf("Built systems.")).toBe("ltr");
  // The fields too: each line of what is typed in the direction of its first letter (as dir="auto").
  const bidiOf = (label: string) =>
    page.evaluate<string>(
      `getComputedStyle(document.getElementById([...document.querySelectorAll("label")]
        .find((l) => l.textContent.trim().replace(/\\s*\\*$/, "") === ${JSON.stringify(label)}).htmlFor)).unicodeBidi`,
    );
  for (const label of ["Name", "Summary"]) expect(await bidiOf(label), label).toBe("plaintext");

  // The levels Chromium gives a screen reader (Playwright's own roles read the tags alone).
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
    nodes: {
      role?: { value: string };
      name?: { value: string };
      properties?: { name: string; value: { value: number } }[];
    }[];
  };
  const levels = nodes
    .filter((node) => node.role?.value === "heading")
    .map((node) => [node.name?.value, node.properties?.find((p) => p.name === "level")?.value.value]);
  expect(levels).toEqual(
    expect.arrayContaining([
      ["Preview", 2],
      ["Summary", 4],
      ["Dana Levi", 3],
    ]),
  );
  expect(levels.filter(([name]) => name === "Summary")).toEqual([["Summary", 4]]);
});

test("a PDF whose fonts cannot draw some characters is saved, and the editor names them", async ({
  page,
}) => {
  await signIn(page, uniqueUser("unrendered"));
  // No font of the PDF draws an Egyptian hieroglyph or the crab; it does draw Chinese (李小龍).
  await fillProfile(page, "Zoë 李小龍 \u{13000}🦀");
  const pdf = await downloadFromMenu(page, "PDF (A4)");
  expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
  // Next.js's route announcer is an alert too, always there and empty.
  const notices = page.getByRole("alert").filter({ hasText: /./ });
  await expect(notices).toHaveText(
    "The PDF's fonts cannot draw \u{13000} 🦀: those characters show as empty boxes in it. The Word file and plain text keep them.",
  );
  // A file without such characters says nothing.
  await downloadFromMenu(page, "Word (.docx)");
  await expect(notices).toHaveCount(0);
});

test("the Download menu saves every format as the file it is, holding what was entered", async ({ page }) => {
  await signIn(page, uniqueUser("download"));
  await fillProfile(page, "Grace Hopper");
  await addEntry(page, "Skills", "skill", async (form) => {
    await form.getByLabel("Skill", { exact: true }).fill("COBOL");
    await form.getByLabel("Category").selectOption("language");
  });
  await expect(page.getByTestId("preview")).toContainText("COBOL");

  const markdown = await downloadFromMenu(page, "Markdown (.md)");
  expect(markdown.name).toBe("Grace-Hopper-resume.md");
  expect(markdown.bytes.toString()).toContain("# Grace Hopper");
  expect(markdown.bytes.toString()).toContain("COBOL (intermediate)");

  const data = await downloadFromMenu(page, "Resume data (.json)");
  expect(data.name).toBe("Grace-Hopper-resume-data.json");
  const resume = JSON.parse(data.bytes.toString());
  expect(resume.profile.name).toBe("Grace Hopper");
  expect(resume.skills.map((s: { name: string }) => s.name)).toEqual(["COBOL"]);

  const jsonResume = await downloadFromMenu(page, "JSON Resume (.json)");
  expect(jsonResume.name).toBe("Grace-Hopper-resume.json");
  expect(JSON.parse(jsonResume.bytes.toString()).basics.name).toBe("Grace Hopper");

  const text = await downloadFromMenu(page, "Plain text (.txt)");
  expect(text.name).toBe("Grace-Hopper-resume.txt");
  expect(text.bytes.toString()).toMatch(/^Grace Hopper\nStaff Engineer\n/);

  const pdf = await downloadFromMenu(page, "PDF (A4)");
  expect(pdf.name).toBe("Grace-Hopper-resume.pdf");
  expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
  if (hasPoppler) expect(await pdfText(pdf.bytes)).toContain("COBOL (intermediate)");
  const letter = await downloadFromMenu(page, "PDF (US Letter)");
  if (hasPoppler) expect(await pdfInfo(letter.bytes)).toMatch(/612 x 792 pts/);

  const word = await downloadFromMenu(page, "Word (.docx)");
  expect(word.name).toBe("Grace-Hopper-resume.docx");
  expect((await mammoth.extractRawText({ buffer: word.bytes })).value).toContain("COBOL (intermediate)");

  const theme = THEME_NAMES[1]!;
  await page.getByLabel("Style").selectOption(theme);
  const themed = await downloadFromMenu(page, `Themed page: ${theme} (.html)`);
  expect(themed.name).toBe(`Grace-Hopper-resume-${theme}.html`);
  expect(themed.bytes.toString()).toMatch(/<html[\s\S]*Grace Hopper[\s\S]*COBOL/);
});

test("the Download menu opens and closes from the keyboard", async ({ page }) => {
  await signIn(page, uniqueUser("download-keys"));
  const menuButton = page.getByRole("button", { name: "Download…" });
  await menuButton.focus();
  await page.keyboard.press("Enter");
  await expect(menuButton).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("button", { name: "PDF (A4)" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("list", { name: "Download as" })).toBeHidden();
  await expect(menuButton).toBeFocused();
});

test("hostile text is shown as text in the editor and the preview and runs no script", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const hostile = "<img src=x onerror=alert(1)>";
  await signIn(page, uniqueUser("hostile"));
  await fillProfile(page, hostile);
  await addEntry(page, "Experience", "experience", async (form) => {
    await form.getByLabel("Title", { exact: true }).fill(hostile);
    await form.getByLabel("Organization").fill("<script>alert(2)</script>");
    await form.getByLabel("Start date").fill("2020-01-01");
    await form.getByLabel("Current role").check();
    await form.getByRole("button", { name: "Add responsibility" }).click();
    await form.getByLabel("Responsibilities 1").fill(hostile);
  });
  const preview = page.getByTestId("preview");
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(hostile);
  await expect(preview.locator("li", { hasText: hostile })).toBeVisible();
  await expect(section(page, "Experience").getByText(`${hostile} — <script>alert(2)</script>`)).toBeVisible();
  await expect(page.locator("img")).toHaveCount(0);
  await expect(preview.locator("script")).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test("an axe-core scan of the filled editor finds no serious or critical violation", async ({ page }) => {
  await signIn(page, uniqueUser("axe"));
  await fillProfile(page, "Accessible Person");
  await openAddForm(page, "Experience", "experience");
  const results = await new AxeBuilder({ page }).analyze();
  const severe = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(severe.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test.describe("at 375 px wide", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the main flow works on a phone-sized screen", async ({ page }) => {
    const errors = collectErrors(page);
    await signIn(page, uniqueUser("phone"));
    await fillProfile(page, "Small Screen");
    await addEntry(page, "Goals", "goal", async (form) => {
      await form.getByLabel("Goal", { exact: true }).fill("Read more");
      await form.getByLabel("Category").selectOption("personal");
    });
    await expect(page.getByTestId("preview")).toContainText("Read more");
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(artifacts, "editor-375px.png"), fullPage: true });
    expect(errors).toEqual([]);
  });

  test("the Download menu opens within the screen", async ({ page }) => {
    await signIn(page, uniqueUser("phone-menu"));
    await page.getByRole("button", { name: "Download…" }).click();
    const menu = (await page.getByRole("list", { name: "Download as" }).boundingBox())!;
    expect(menu.x).toBeGreaterThanOrEqual(0);
    expect(menu.x + menu.width).toBeLessThanOrEqual(375);
  });
});

test("pages carry the security headers", async ({ request }) => {
  for (const url of ["/sign-in", "/editor", "/", "/openapi.json", "/docs"]) {
    const response = await request.get(url, { maxRedirects: 0 });
    const headers = response.headers();
    expect(headers["content-security-policy"], url).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"], url).toContain("default-src 'self'");
    const scriptSources = /script-src ([^;]*)/.exec(headers["content-security-policy"] ?? "")?.[1];
    expect(scriptSources, url).toMatch(/^'self'/);
    expect(scriptSources, url).not.toContain("unsafe-inline");
    expect(headers["x-content-type-options"], url).toBe("nosniff");
    expect(headers["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
  }
});

test("page scripts run only with the response's own CSP nonce", async ({ request }) => {
  const nonces: string[] = [];
  for (let i = 0; i < 2; i++) {
    const response = await request.get("/sign-in");
    const policy = response.headers()["content-security-policy"] ?? "";
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(policy)?.[1];
    if (!nonce) throw new Error(`no script nonce in ${policy}`);
    const scripts = (await response.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    nonces.push(nonce);
  }
  expect(nonces[0]).not.toBe(nonces[1]);
});

test("the editor's first-load JavaScript is under 250 KB gzipped, and becomes interactive quickly", async ({
  page,
}) => {
  await signIn(page, uniqueUser("weight"));
  const scripts = new Map<string, Buffer>();
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script")
      scripts.set(response.url(), await response.body().catch(() => Buffer.alloc(0)));
  });
  const started = Date.now();
  await page.goto("/editor");
  await expect(page.getByRole("button", { name: "Save profile" })).toBeEnabled();
  await page.getByLabel("Name", { exact: true }).fill("typing works");
  const interactiveMs = Date.now() - started;
  await page.waitForLoadState("networkidle");
  const gzipped = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body).length, 0);
  console.log(
    `editor first-load JS: ${(gzipped / 1024).toFixed(1)} KB gzipped in ${scripts.size} files; interactive after ${interactiveMs} ms`,
  );
  expect(gzipped).toBeLessThan(250 * 1024);
});
