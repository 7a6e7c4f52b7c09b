import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { THEME_NAMES } from "@app/resume/client";
import { openAddForm, section, severeViolations, signIn, uniqueUser } from "./helpers.ts";

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

/** Axe's serious and critical findings on the whole page. */
const severeViolationsOf = (page: Page) => severeViolations(new AxeBuilder({ page }));

async function addHobby(page: Page, name: string) {
  const form = await openAddForm(page, "Hobbies", "hobby");
  await form.getByLabel("Hobby", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(form).toBeHidden();
}

test.describe("at 375 px wide", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("Edit and Preview are tabs: one shows the forms, the other the preview, and arrow keys move between them", async ({
    page,
  }) => {
    await signIn(page, uniqueUser("tabs"));
    const tabs = page.getByRole("tablist", { name: "Editor" });
    const edit = tabs.getByRole("tab", { name: "Edit" });
    const preview = tabs.getByRole("tab", { name: "Preview" });
    await expect(edit).toHaveAttribute("aria-selected", "true");
    await expect(preview).toHaveAttribute("aria-selected", "false");
    await expect(page.getByRole("tabpanel", { name: "Edit" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
    await expect(page.getByTestId("preview")).toBeHidden();

    await preview.click();
    await expect(preview).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel", { name: "Preview" })).toBeVisible();
    await expect(page.getByTestId("preview")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Profile" })).toBeHidden();

    await page.keyboard.press("ArrowLeft");
    await expect(edit).toBeFocused();
    await expect(edit).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
    await expect(page.getByTestId("preview")).toBeHidden();
    await page.keyboard.press("ArrowRight");
    await expect(preview).toBeFocused();
    await expect(page.getByTestId("preview")).toBeVisible();
  });

  test("the toolbar is one row, the rest of its actions in a More menu, and Style sits beside its select", async ({
    page,
  }) => {
    await signIn(page, uniqueUser("toolbar-phone-person"));
    // The middle of every visible control and text of the top bar: one row has one middle.
    const middles = await page.evaluate<number[]>(
      `Array.from(document.querySelectorAll("header.topbar button, header.topbar p"))
        .filter((element) => element.getClientRects().length > 0)
        .map((element) => { const r = element.getBoundingClientRect(); return r.top + r.height / 2; })`,
    );
    expect(middles.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThanOrEqual(4);
    expect((await box(page.locator("header.topbar"))).height).toBeLessThan(80);
    await expect(page.getByRole("button", { name: "Download…" })).toBeVisible();

    const more = page.getByRole("button", { name: "More…" });
    await more.focus();
    await page.keyboard.press("Enter");
    await expect(more).toHaveAttribute("aria-expanded", "true");
    const menu = page.getByRole("list", { name: "More actions" });
    await expect(menu.getByRole("button", { name: "Import…" })).toBeFocused();
    await expect(menu.getByRole("button", { name: "Print / Save as PDF" })).toBeVisible();
    const menuBox = await box(menu);
    expect(menuBox.x).toBeGreaterThanOrEqual(0);
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(375);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(more).toBeFocused();
    // Focus leaving the menu closes it.
    await page.keyboard.press("Space");
    await expect(menu).toBeVisible();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(menu).toBeHidden();
    // Its Import… opens the import panel.
    await more.click();
    await menu.getByRole("button", { name: "Import…" }).click();
    await expect(page.getByRole("heading", { name: /Import/ })).toBeVisible();

    await page.getByRole("tab", { name: "Preview" }).click();
    const label = await box(page.getByText("Style", { exact: true }));
    const select = await box(page.getByLabel("Style"));
    expect(Math.abs(label.y + label.height / 2 - (select.y + select.height / 2))).toBeLessThanOrEqual(4);
    expect(select.x).toBeGreaterThan(label.x);
    await page.getByLabel("Style").selectOption(THEME_NAMES[0]!);
    const themed = await box(page.getByLabel("Style"));
    expect(Math.abs(label.y + label.height / 2 - (themed.y + themed.height / 2))).toBeLessThanOrEqual(4);
  });

  test("Edit and Delete of every entry sit at the same place, whatever the title's length", async ({
    page,
  }) => {
    await signIn(page, uniqueUser("row-actions"));
    await addHobby(page, "Go");
    await addHobby(page, "Restoring mechanical calculators and difference engines from old drawings");
    const hobbies = section(page, "Hobbies");
    const shortEdit = await box(hobbies.getByRole("button", { name: "Edit Go" }));
    const longEdit = await box(hobbies.getByRole("button", { name: /^Edit Restoring/ }));
    const shortDelete = await box(hobbies.getByRole("button", { name: "Delete Go" }));
    const longDelete = await box(hobbies.getByRole("button", { name: /^Delete Restoring/ }));
    expect(Math.abs(shortEdit.x - longEdit.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(shortDelete.x - longDelete.x)).toBeLessThanOrEqual(1);
    // On the first line of their entry, not under its title.
    const entries = hobbies.getByTestId("hobbies-entry");
    for (const [entry, edit] of [
      [entries.filter({ hasText: "Go" }).first(), shortEdit],
      [entries.filter({ hasText: "Restoring" }), longEdit],
    ] as const) {
      expect(edit.y - (await box(entry)).y).toBeLessThan(20);
    }
  });

  test("axe finds no serious or critical violation on either tab", async ({ page }) => {
    await signIn(page, uniqueUser("axe-phone"));
    await addHobby(page, "Chess");
    expect(await severeViolationsOf(page)).toEqual([]);
    await page.getByRole("tab", { name: "Preview" }).click();
    await expect(page.getByTestId("preview")).toContainText("Chess");
    expect(await severeViolationsOf(page)).toEqual([]);
    await page.getByRole("button", { name: "More…" }).click();
    expect(await severeViolationsOf(page)).toEqual([]);
  });
});

test.describe("at 375 × 800", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("Import… chosen on the Preview tab, as its empty preview suggests, opens the import panel on the Edit tab with the focus in it", async ({
    page,
  }) => {
    await signIn(page, uniqueUser("import-from-preview"));
    const edit = page.getByRole("tab", { name: "Edit" });
    const preview = page.getByRole("tab", { name: "Preview" });
    const more = page.getByRole("button", { name: "More…" });
    const importPanel = page.getByRole("region", { name: "Import a resume" });
    await preview.click();
    await expect(page.getByTestId("preview-empty")).toContainText("Import…");

    await more.click();
    await page.getByRole("list", { name: "More actions" }).getByRole("button", { name: "Import…" }).click();
    await expect(edit).toHaveAttribute("aria-selected", "true");
    await expect(importPanel).toBeVisible();
    await expect(page.getByLabel("Resume file")).toBeFocused();
    await expect(page.getByLabel("Resume file")).toBeInViewport();

    // Chosen again from the Preview tab while open: the same, the panel as it was.
    await preview.click();
    await expect(importPanel).toBeHidden();
    await more.click();
    await page.getByRole("list", { name: "More actions" }).getByRole("button", { name: "Import…" }).click();
    await expect(edit).toHaveAttribute("aria-selected", "true");
    await expect(page.getByLabel("Resume file")).toBeFocused();

    await importPanel.getByRole("button", { name: "Cancel" }).click();
    await expect(importPanel).toBeHidden();
    await expect(more).toBeFocused();
  });
});

test("the chosen preview style is kept over a reload, per person; an unknown one falls back to Markdown", async ({
  page,
}) => {
  const user = uniqueUser("style");
  await signIn(page, user);
  const theme = THEME_NAMES[1]!;
  await page.getByLabel("Style").selectOption(theme);
  await expect(page.getByTestId("theme-preview")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Style")).toHaveValue(theme);
  await expect(page.getByTestId("theme-preview")).toBeVisible();
  await expect(page.getByTestId("theme-preview")).toHaveAttribute(
    "title",
    `Resume preview in the ${theme} theme`,
  );

  const keys = await page.evaluate<string[]>("Object.keys(localStorage)");
  const key = keys.find((k) => k.includes(user) && k.includes("preview-style"));
  expect(key).toBeDefined();
  await page.evaluate(`localStorage.setItem(${JSON.stringify(key)}, "no-such-theme")`);
  await page.reload();
  await expect(page.getByLabel("Style")).toHaveValue("markdown");
  await expect(page.getByTestId("preview")).toBeVisible();
});

test("one confirmation at a time: a new one replaces the one still shown in another section", async ({
  page,
}) => {
  await signIn(page, uniqueUser("one-confirmation"));
  // Both forms filled first, so that the second confirmation comes well within the first one's 5 seconds.
  const hobby = await openAddForm(page, "Hobbies", "hobby");
  await hobby.getByLabel("Hobby", { exact: true }).fill("Chess");
  const goal = await openAddForm(page, "Goals", "goal");
  await goal.getByLabel("Goal", { exact: true }).fill("Read more");
  await goal.getByLabel("Category").selectOption("personal");
  await hobby.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(section(page, "Hobbies").getByRole("status")).toHaveText("Added.");
  await goal.getByRole("button", { name: "Add goal", exact: true }).click();
  await expect(section(page, "Goals").getByRole("status")).toHaveText("Added.");
  // At once, not retried: the first confirmation would go by itself after 5 seconds anyway.
  expect(
    await page
      .getByRole("status")
      .filter({ hasText: /Added|Saved|Deleted/ })
      .count(),
  ).toBe(1);
  expect(await section(page, "Hobbies").getByRole("status").textContent()).toBe("");

  await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Profile saved." })).toHaveCount(1);
  expect(
    await page
      .getByRole("status")
      .filter({ hasText: /Added|^Saved|Deleted/ })
      .count(),
  ).toBe(0);
});

test("selects with a server default show it for a new entry, and saving without touching it stores it", async ({
  page,
}) => {
  await signIn(page, uniqueUser("defaults"));
  const experience = await openAddForm(page, "Experience", "experience");
  const employment = experience.getByLabel("Employment type");
  await expect(employment).toHaveValue("full-time");
  // Shown as the resume's formats write it, sent as the API's value.
  await expect(employment.locator("option:checked")).toHaveText("Full-time");
  await expect(employment.locator("option", { hasText: "Choose…" })).toHaveCount(0);
  await experience.getByLabel("Title", { exact: true }).fill("Engineer");
  await experience.getByLabel("Organization").fill("Acme");
  await experience.getByLabel("Start date").fill("2020-01-15");
  await experience.getByLabel("Current role").check();
  await experience.getByRole("button", { name: "Add experience", exact: true }).click();
  await expect(experience).toBeHidden();
  const stored = await page.request.get("/me/resume?format=json");
  expect(stored.ok()).toBe(true);
  const resume = (await stored.json()) as { experience: { employment_type: string }[] };
  expect(resume.experience.map((e) => e.employment_type)).toEqual(["full-time"]);

  const skill = await openAddForm(page, "Skills", "skill");
  await expect(skill.getByLabel("Proficiency")).toHaveValue("intermediate");
  // A required select without a default still asks.
  await expect(skill.getByLabel("Category")).toHaveValue("");
  await expect(skill.getByLabel("Category").locator("option", { hasText: "Choose…" })).toHaveCount(1);
  const certification = await openAddForm(page, "Certifications", "certification");
  await expect(certification.getByLabel("Type")).toHaveValue("professional");
  const goal = await openAddForm(page, "Goals", "goal");
  await expect(goal.getByLabel("Status")).toHaveValue("active");
});

test.describe("at 640 px wide, a 1280 px window zoomed to 200 %", () => {
  test.use({ viewport: { width: 640, height: 720 } });

  test("a control the keyboard focuses is never under the Edit and Preview bar", async ({ page }) => {
    await signIn(page, uniqueUser("focus-under-bar"));
    for (const name of ["Chess", "Rowing", "Baking"]) await addHobby(page, name);
    await page.getByRole("button", { name: "Manage API tokens" }).focus();
    const hidden: string[] = [];
    let reachedBar = false;
    // Back through every control of the Edit tab, up to the bar's own tabs.
    for (let step = 0; step < 80 && !reachedBar; step += 1) {
      await page.keyboard.press("Shift+Tab");
      const focused = await page.evaluate<{ inBar: boolean; covered: string | null }>(
        `(() => {
          const bar = document.querySelector('[role="tablist"]').getBoundingClientRect();
          const focused = document.activeElement;
          const r = focused.getBoundingClientRect();
          const covered = r.top < bar.bottom - 1 && r.bottom > bar.top + 1;
          return {
            inBar: Boolean(focused.closest('[role="tablist"]')),
            covered: covered ? focused.getAttribute("aria-label") || focused.id || focused.tagName : null,
          };
        })()`,
      );
      reachedBar = focused.inBar;
      if (!reachedBar && focused.covered) hidden.push(focused.covered);
    }
    expect(reachedBar).toBe(true);
    expect(hidden).toEqual([]);
  });
});

test.describe("at 320 px wide", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("the top bar still says who is signed in", async ({ page }) => {
    const user = uniqueUser("narrow");
    await signIn(page, user);
    const name = page.locator(".account-name");
    await expect(name).toContainText(user.slice(0, 8));
    expect((await box(name)).width).toBeGreaterThan(100);
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(320);
  });
});
