import { expect, test, type Locator, type Page } from "@playwright/test";
import { tokenFor } from "../test/tokens.ts";
import { openAddForm, section, signIn, uniqueUser } from "./helpers.ts";

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

/** The "Current role" checkbox beside its words, left-aligned with the field, and the End date error under the field. */
async function expectCurrentRoleLayout(page: Page) {
  const form = await openAddForm(page, "Experience", "experience");
  await form.getByLabel("Title", { exact: true }).fill("Engineer");
  await form.getByLabel("Organization").fill("Acme");
  await form.getByLabel("Start date").fill("2020-05-01");
  await form.getByLabel("End date").fill("2019-01-01");
  await form.getByRole("button", { name: "Add experience", exact: true }).click();

  const endDate = await box(form.getByLabel("End date"));
  const error = await box(form.locator('[id$="end_date-error"]'));
  const checkbox = await box(form.getByRole("checkbox", { name: "Current role" }));
  // The label holds the checkbox and its words: one line high when they sit side by side.
  const label = await box(form.locator("label", { hasText: "Current role" }));
  expect(error.y).toBeGreaterThanOrEqual(endDate.y + endDate.height - 1);
  expect(checkbox.y).toBeGreaterThanOrEqual(error.y + error.height - 1);
  expect(Math.abs(checkbox.x - endDate.x)).toBeLessThanOrEqual(4);
  expect(label.height).toBeLessThan(2 * Math.max(checkbox.height, 16));
  expect(Math.abs(checkbox.y + checkbox.height / 2 - (label.y + label.height / 2))).toBeLessThanOrEqual(4);
}

test("the Current role checkbox sits beside its words, and the End date error under its field (1280 px)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, uniqueUser("layout"));
  await expectCurrentRoleLayout(page);
});

test.describe("at 375 px wide", () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test("the Current role checkbox sits beside its words, and the End date error under its field", async ({
    page,
  }) => {
    await signIn(page, uniqueUser("layout-phone"));
    await expectCurrentRoleLayout(page);
  });
});

test("entry lists say dates as the preview does, and a confirmation is announced and then goes", async ({
  page,
}) => {
  await signIn(page, uniqueUser("dates"));
  const experience = await openAddForm(page, "Experience", "experience");
  await experience.getByLabel("Title", { exact: true }).fill("Engineer");
  await experience.getByLabel("Organization").fill("Acme");
  await experience.getByLabel("Start date").fill("2020-01-15");
  await experience.getByRole("checkbox", { name: "Current role" }).check();
  await experience.getByRole("button", { name: "Add experience", exact: true }).click();
  const status = section(page, "Experience").getByRole("status");
  await expect(status).toHaveText("Added.");
  await expect(section(page, "Experience").getByTestId("experience-entry")).toContainText(
    "Jan 2020 – Present",
  );

  const education = await openAddForm(page, "Education", "education");
  await education.getByLabel("Degree").fill("BSc");
  await education.getByLabel("Institution").fill("TU");
  await education.getByLabel("Start date").fill("2010-10-01");
  await education.getByLabel("End date").fill("2014-06-30");
  await education.getByRole("button", { name: "Add education", exact: true }).click();
  await expect(section(page, "Education").getByTestId("education-entry")).toContainText(
    "Oct 2010 – Jun 2014",
  );
  await expect(page.getByTestId("preview")).toContainText("Oct 2010 – Jun 2014");

  await expect(status).toHaveText("", { timeout: 10_000 });
});

test("opening a form moves focus into it, and closing it returns focus to the button that opened it", async ({
  page,
}) => {
  await signIn(page, uniqueUser("focus"));
  const hobbies = section(page, "Hobbies");
  const add = hobbies.getByRole("button", { name: "Add hobby", exact: true });
  await add.click();
  const form = hobbies.getByRole("form", { name: "Add hobby" });
  await expect(form.getByLabel("Hobby", { exact: true })).toBeFocused();
  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(add).toBeFocused();

  await add.click();
  await form.getByLabel("Hobby", { exact: true }).fill("Chess");
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(add).toBeFocused();

  const edit = hobbies.getByRole("button", { name: "Edit Chess" });
  await edit.click();
  await expect(
    hobbies.getByRole("form", { name: "Edit hobby" }).getByLabel("Hobby", { exact: true }),
  ).toBeFocused();
  await hobbies.getByRole("button", { name: "Save hobby" }).click();
  await expect(edit).toBeFocused();
});

test("a job's end is asked for: a date, or Current role; an empty start date says so, and the first refused field takes the focus", async ({
  page,
}) => {
  await signIn(page, uniqueUser("end-asked"));
  const form = await openAddForm(page, "Experience", "experience");
  await form.getByLabel("Title", { exact: true }).fill("Analyst");
  await form.getByLabel("Organization").fill("Babbage & Co");
  await form.getByRole("button", { name: "Add experience", exact: true }).click();
  await expect(form.getByLabel("Start date")).toBeFocused();
  await expect(form.locator('[id$="start_date-error"]')).toHaveText("must not be empty");
  await expect(form.locator('[id$="end_date-error"]')).toHaveText("enter a date, or tick “Current role”");
  await expect(form.getByLabel("End date")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Start date").fill("2018-03-01");
  await form.getByRole("button", { name: "Add experience", exact: true }).click();
  await expect(form.getByLabel("End date")).toBeFocused();
  await expect(section(page, "Experience").getByTestId("experience-entry")).toHaveCount(0);

  await form.getByRole("checkbox", { name: "Current role" }).check();
  await form.getByRole("button", { name: "Add experience", exact: true }).click();
  await expect(section(page, "Experience").getByTestId("experience-entry")).toHaveText([
    /Analyst — Babbage & Co\s*Mar 2018 – Present/,
  ]);
});

test("an entry whose dates are shown as years reads in years in its list and the preview; a new one starts with months", async ({
  page,
}) => {
  await signIn(page, uniqueUser("years-only"));
  const form = await openAddForm(page, "Education", "education");
  await expect(form.getByLabel("Show dates as")).toHaveValue("month");
  await form.getByLabel("Degree").fill("BSc");
  await form.getByLabel("Institution").fill("Uni");
  await form.getByLabel("Start date").fill("2008-09-01");
  await form.getByLabel("End date").fill("2012-06-30");
  await form.getByLabel("Show dates as").selectOption({ label: "Year only (2018)" });
  await form.getByRole("button", { name: "Add education", exact: true }).click();
  await expect(section(page, "Education").getByTestId("education-entry")).toHaveText([
    /BSc — Uni\s*2008 – 2012/,
  ]);
  await expect(page.getByTestId("preview")).toContainText("2008 – 2012");
  await expect(page.getByTestId("preview")).not.toContainText("Sep 2008");
});

test("the profile's link rows and the Versions and API tokens panels take the focus where the person works next", async ({
  page,
}) => {
  await signIn(page, uniqueUser("focus-links"));
  const addLink = page.getByRole("button", { name: "Add link" });
  await addLink.click();
  await expect(page.getByLabel("Link 1 name")).toBeFocused();
  await page.keyboard.type("github");
  await addLink.click();
  await expect(page.getByLabel("Link 2 name")).toBeFocused();
  await page.getByRole("button", { name: "Remove link 1" }).click();
  await expect(page.getByLabel("Link 1 name")).toBeFocused();
  await expect(page.getByLabel("Link 1 name")).toHaveValue("");
  await page.getByRole("button", { name: "Remove link 1" }).click();
  await expect(addLink).toBeFocused();

  await page.getByRole("button", { name: "Manage versions" }).click();
  await expect(page.getByLabel("Name of the new version")).toBeFocused();
  await page.getByRole("button", { name: "Manage API tokens" }).click();
  await expect(page.getByLabel("Token name")).toBeFocused();
});

test("Escape closes a form as Cancel does, asking first when something typed would go", async ({ page }) => {
  await signIn(page, uniqueUser("escape"));
  const hobbies = section(page, "Hobbies");
  const add = hobbies.getByRole("button", { name: "Add hobby", exact: true });
  const form = hobbies.getByRole("form", { name: "Add hobby" });
  await add.click();
  await page.keyboard.press("Escape");
  await expect(form).toBeHidden();
  await expect(add).toBeFocused();

  await add.click();
  await form.getByLabel("Hobby", { exact: true }).fill("Chess");
  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.keyboard.press("Escape");
  await expect.poll(() => asked).toEqual(["Discard what you typed in this form?"]);
  await expect(form.getByLabel("Hobby", { exact: true })).toHaveValue("Chess");

  page.once("dialog", (dialog) => void dialog.accept());
  await page.keyboard.press("Escape");
  await expect(form).toBeHidden();
  await expect(add).toBeFocused();
  // Nothing of it is kept: the form opens empty, and leaving the page asks nothing.
  await add.click();
  await expect(form.getByLabel("Hobby", { exact: true })).toHaveValue("");
});

test("another entry's Edit, or Add, asks before the open form's typing goes; a deleted entry's draft goes with it", async ({
  page,
}) => {
  await signIn(page, uniqueUser("switch-form"));
  for (const name of ["Chess", "Rowing"]) {
    const form = await openAddForm(page, "Hobbies", "hobby");
    await form.getByLabel("Hobby", { exact: true }).fill(name);
    await form.getByRole("button", { name: "Add hobby", exact: true }).click();
    await expect(form).toBeHidden();
  }
  const hobbies = section(page, "Hobbies");
  await hobbies.getByRole("button", { name: "Edit Chess" }).click();
  const chess = hobbies.getByRole("form", { name: "Edit hobby" });
  await chess.getByLabel("Description").fill("Typed and not saved");
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.message());
    void (asked.length === 1 ? dialog.dismiss() : dialog.accept());
  });
  // Dismissed: the form stays open with the typing.
  await hobbies.getByRole("button", { name: "Edit Rowing" }).click();
  await expect.poll(() => asked).toEqual(["Discard what you typed in this form?"]);
  await expect(chess.getByLabel("Description")).toHaveValue("Typed and not saved");
  await expect(chess.getByLabel("Hobby", { exact: true })).toHaveValue("Chess");
  // Evaluated as text: the tests are compiled without the DOM's types.
  const drafts = () =>
    page.evaluate<Record<string, string>>(
      'Object.fromEntries(Object.entries(sessionStorage).filter(([key]) => key.startsWith("draft:")))',
    );
  const chessDraft = await drafts();
  expect(Object.keys(chessDraft)).toHaveLength(1);
  // Accepted: the typing goes, nothing kept of it; Add then opens without a question (Rowing's form holds no typing).
  await hobbies.getByRole("button", { name: "Edit Rowing" }).click();
  await expect(
    hobbies.getByRole("form", { name: "Edit hobby" }).getByLabel("Hobby", { exact: true }),
  ).toHaveValue("Rowing");
  expect(await drafts()).toEqual({});
  await hobbies.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(hobbies.getByRole("form", { name: "Add hobby" })).toBeVisible();
  expect(asked).toHaveLength(2);
  await hobbies.getByRole("form", { name: "Add hobby" }).getByRole("button", { name: "Cancel" }).click();

  // Chess deleted here while this tab keeps a draft of it (as a failed save keeps one): after a reload
  // nothing says it was deleted elsewhere, and no form offers it again.
  await page.evaluate(`for (const [key, value] of Object.entries(${JSON.stringify(chessDraft)}))
    sessionStorage.setItem(key, value)`);
  await hobbies.getByRole("button", { name: "Delete Chess" }).click();
  await expect(hobbies.getByTestId("hobbies-entry")).toHaveCount(1);
  expect(await drafts()).toEqual({});
  await page.reload();
  await expect(section(page, "Hobbies").getByTestId("hobbies-entry")).toHaveCount(1);
  await expect(section(page, "Hobbies").getByRole("form")).toHaveCount(0);
  await expect(page.getByText("deleted in another tab or app")).toHaveCount(0);
});

test("after the session expires the header says so, and Sign in again keeps the user id", async ({
  page,
  context,
}) => {
  const user = uniqueUser("expiry");
  await signIn(page, user);
  await expect(page.locator("header")).toContainText(`Signed in as ${user}`);
  const form = await openAddForm(page, "Hobbies", "hobby");
  await form.getByLabel("Hobby", { exact: true }).fill("Kept");
  await context.clearCookies();
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "session has expired" }).first()).toBeVisible();
  await expect(page.locator("header")).not.toContainText("Signed in as");
  await expect(page.locator("header")).toContainText("Session expired");

  await page.getByRole("link", { name: "Sign in again" }).click();
  await expect(page.getByLabel("User id")).toHaveValue(user);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/editor$/);
  await expect(
    section(page, "Hobbies").getByRole("form", { name: "Add hobby" }).getByLabel("Hobby", { exact: true }),
  ).toHaveValue("Kept");
});

test("a list's move, remove and add buttons take the focus along with the item they moved, removed or added", async ({
  page,
}) => {
  await signIn(page, uniqueUser("list-focus"));
  const form = await openAddForm(page, "Experience", "experience");
  for (const text of ["one", "two", "three"]) {
    await form.getByRole("button", { name: "Add responsibility" }).click();
    await expect(
      form.getByLabel(`Responsibilities ${["one", "two", "three"].indexOf(text) + 1}`),
    ).toBeFocused();
    await page.keyboard.type(text);
  }
  const values = () =>
    Promise.all([1, 2, 3].map((n) => form.getByLabel(`Responsibilities ${n}`).inputValue()));

  await form.getByRole("button", { name: "Move responsibility 3 up" }).focus();
  await page.keyboard.press("Enter");
  await expect(form.getByRole("button", { name: "Move responsibility 2 up" })).toBeFocused();
  await page.keyboard.press("Enter");
  expect(await values()).toEqual(["three", "one", "two"]);
  // At the top its up button is disabled: the focus is on its text.
  await expect(form.getByLabel("Responsibilities 1")).toBeFocused();

  await form.getByRole("button", { name: "Remove responsibility 2" }).focus();
  await page.keyboard.press("Enter");
  await expect(form.getByLabel("Responsibilities 2")).toBeFocused();
  await expect(form.getByLabel("Responsibilities 2")).toHaveValue("two");
  await expect(form.getByLabel("Responsibilities 3")).toHaveCount(0);
});

test("after a delete the focus goes to the next entry's Edit, else the one before's, else Add", async ({
  page,
}) => {
  await signIn(page, uniqueUser("delete-focus"));
  const hobbies = section(page, "Hobbies");
  for (const name of ["Chess", "Rowing", "Baking"]) {
    const form = await openAddForm(page, "Hobbies", "hobby");
    await form.getByLabel("Hobby", { exact: true }).fill(name);
    await form.getByRole("button", { name: "Add hobby", exact: true }).click();
    await expect(form).toBeHidden();
  }
  page.on("dialog", (dialog) => void dialog.accept());
  const deleteByKeyboard = async (name: string) => {
    await hobbies.getByRole("button", { name: `Delete ${name}` }).focus();
    await page.keyboard.press("Enter");
    await expect(hobbies.getByText(`Deleted “${name}”.`)).toBeVisible();
  };
  // In the service's order, as the list shows them.
  const edits = hobbies.getByRole("button", { name: /^Edit / });
  const [first = "", second = "", third = ""] = await Promise.all(
    [0, 1, 2].map(async (i) => (await edits.nth(i).getAttribute("aria-label"))!.slice("Edit ".length)),
  );
  await deleteByKeyboard(second);
  await expect(hobbies.getByRole("button", { name: `Edit ${third}` })).toBeFocused();
  await deleteByKeyboard(third);
  await expect(hobbies.getByRole("button", { name: `Edit ${first}` })).toBeFocused();
  await deleteByKeyboard(first);
  await expect(hobbies.getByRole("button", { name: "Add hobby", exact: true })).toBeFocused();
});

test("a delete while another entry's form is open gives the focus to that form, where its Edit button was", async ({
  page,
}) => {
  await signIn(page, uniqueUser("delete-beside-form"));
  const hobbies = section(page, "Hobbies");
  for (const name of ["Chess", "Rowing"]) {
    const form = await openAddForm(page, "Hobbies", "hobby");
    await form.getByLabel("Hobby", { exact: true }).fill(name);
    await form.getByRole("button", { name: "Add hobby", exact: true }).click();
    await expect(form).toBeHidden();
  }
  page.on("dialog", (dialog) => void dialog.accept());
  const edits = hobbies.getByRole("button", { name: /^Edit / });
  const [first = "", second = ""] = await Promise.all(
    [0, 1].map(async (i) => (await edits.nth(i).getAttribute("aria-label"))!.slice("Edit ".length)),
  );
  await hobbies.getByRole("button", { name: `Edit ${second}` }).click();
  await hobbies.getByRole("button", { name: `Delete ${first}` }).focus();
  await page.keyboard.press("Enter");
  await expect(hobbies.getByText(`Deleted “${first}”.`)).toBeVisible();
  await expect(hobbies.getByLabel("Hobby", { exact: true })).toBeFocused();
  // The last one deleted with the Add form open: its first field.
  await hobbies.getByRole("button", { name: "Cancel" }).click();
  await openAddForm(page, "Hobbies", "hobby");
  await hobbies.getByRole("button", { name: `Delete ${second}` }).focus();
  await page.keyboard.press("Enter");
  await expect(hobbies.getByText(`Deleted “${second}”.`)).toBeVisible();
  await expect(hobbies.getByLabel("Hobby", { exact: true })).toBeFocused();
});

test("a save whose Markdown preview is refused still shows what was saved, and says why the preview waits", async ({
  page,
}) => {
  await signIn(page, uniqueUser("preview-refused"));
  // The reload after the save: the resume's JSON as read, its Markdown refused as a busy server refuses it.
  await page.route(/\/api\/trpc\/resume\.get,resume\.get\?batch=1/, async (route) => {
    const response = await route.fetch();
    const [json] = (await response.json()) as unknown[];
    const refused = {
      error: {
        message: "at most 4 of a person's pages (Markdown, themed HTML) are made at once",
        code: -32029,
        data: { code: "TOO_MANY_REQUESTS", httpStatus: 429 },
      },
    };
    await route.fulfill({
      status: 207,
      contentType: "application/json",
      body: JSON.stringify([json, refused]),
    });
  });
  const form = await openAddForm(page, "Hobbies", "hobby");
  await form.getByLabel("Hobby", { exact: true }).fill("Chess");
  await form.getByRole("button", { name: "Add hobby", exact: true }).click();
  await expect(section(page, "Hobbies").getByTestId("hobbies-entry")).toHaveText([/Chess/]);
  await expect(page.getByRole("alert").filter({ hasText: /at most 4/ })).toBeVisible();
});

test("Save keeps the focus while it saves and after, from the keyboard: the profile, a version, a download", async ({
  page,
}) => {
  await signIn(page, uniqueUser("save-focus"));
  // Each write and download waits until the test has looked at the focus while it is under way.
  let release!: () => void;
  const held = () => new Promise<void>((resolve) => (release = resolve));
  let waiting = held();
  await page.route(
    /\/api\/trpc\/(profile\.put|versions\.replace)|\/me\/resume\?format=text/,
    async (route) => {
      const response = await route.fetch();
      await waiting;
      await route.fulfill({ response });
    },
  );
  const focusedText = () => page.evaluate<string>("document.activeElement?.textContent ?? ''");

  await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await page.getByRole("button", { name: "Save profile" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Save profile" })).toHaveAttribute("aria-disabled", "true");
  expect(await focusedText()).toBe("Save profile");
  release();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save profile" })).toBeFocused();

  waiting = held();
  await page.getByRole("button", { name: "Manage versions" }).click();
  await page.getByLabel("Name of the new version").fill("Backend");
  await page.getByRole("button", { name: "Create version" }).click();
  const editor = page.getByTestId("version-editor");
  await editor.getByLabel("Headline").fill("Backend engineer");
  await editor.getByRole("button", { name: "Save version" }).focus();
  await page.keyboard.press("Enter");
  await expect(editor.getByRole("button", { name: "Save version" })).toHaveAttribute("aria-disabled", "true");
  expect(await focusedText()).toBe("Save version");
  release();
  await expect(editor.getByRole("button", { name: "Save version" })).not.toHaveAttribute("aria-disabled");
  await expect(editor.getByRole("button", { name: "Save version" })).toBeFocused();

  waiting = held();
  await page.getByRole("button", { name: "Download…" }).click();
  const text = page.getByRole("list", { name: "Download as" }).getByRole("button", { name: /^Plain text/ });
  await text.focus();
  const download = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  await expect(text).toHaveText(/preparing…$/);
  await expect(text).toBeFocused();
  release();
  await download;
});

test("a title or bullet written with line breaks through the API keeps them in the form, and when edited and saved", async ({
  page,
}) => {
  // A browser's <input> drops line breaks: the bullet showed run together, and typing in it saved it so.
  const userId = uniqueUser("line-breaks");
  const headers = { authorization: `Bearer ${await tokenFor(userId)}` };
  const written = await page.request.post("/me/experience", {
    headers,
    data: {
      title: "Engineer\nand mentor",
      organization: "Acme",
      start_date: "2020-01-01",
      end_date: "2022-06-30",
      responsibilities: ["Led the team\nof five", "Shipped"],
    },
  });
  expect(written.status()).toBe(201);
  await signIn(page, userId);
  const experience = section(page, "Experience");
  await experience.getByRole("button", { name: /^Edit Engineer/ }).click();
  const form = experience.getByRole("form");
  await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Engineer\nand mentor");
  const bullet = form.getByLabel("Responsibilities 1");
  await expect(bullet).toHaveValue("Led the team\nof five");
  await expect(form.getByLabel("Responsibilities 2")).toHaveValue("Shipped");
  await bullet.press("Control+End");
  await bullet.pressSequentially(" and two");
  await form.getByRole("button", { name: "Save experience" }).click();
  await expect(experience.getByRole("status")).toHaveText("Saved.");
  const stored = await page.request.get("/me/experience", { headers });
  expect((await stored.json()).items).toMatchObject([
    { title: "Engineer\nand mentor", responsibilities: ["Led the team\nof five and two", "Shipped"] },
  ]);
});

test("a new person's preview says where to start, until the resume has something in it", async ({ page }) => {
  // It showed a bare "Resume" heading and nothing else.
  await signIn(page, uniqueUser("empty"));
  const hint = page.getByTestId("preview-empty");
  await expect(hint).toContainText("Nothing here yet");
  await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByTestId("preview")).toContainText("Ada Lovelace");
  await expect(hint).toHaveCount(0);
});

test("rows with the same title have Edit and Delete buttons of their own names: their dates, else their place", async ({
  page,
}) => {
  // A screen reader's list of buttons read "Edit Engineer — Acme" twice: which job was which?
  const userId = uniqueUser("same-titles");
  const headers = { authorization: `Bearer ${await tokenFor(userId)}` };
  const writes = [
    [
      "/me/experience",
      { title: "Engineer", organization: "Acme", start_date: "2015-03-01", end_date: "2017-06-30" },
    ],
    ["/me/experience", { title: "Engineer", organization: "Acme", start_date: "2019-09-01" }],
    ["/me/hobbies", { name: "Chess" }],
    ["/me/hobbies", { name: "Chess" }],
    ["/me/versions", { name: "Backend" }],
    ["/me/versions", { name: "Backend" }],
  ] as const;
  for (const [url, data] of writes)
    expect((await page.request.post(url, { headers, data })).status()).toBe(201);
  await signIn(page, userId);
  const names = async (list: Locator, action: string) =>
    Promise.all(
      (await list.getByRole("button", { name: new RegExp(`^${action} `) }).all()).map(
        async (button) => (await button.getAttribute("aria-label"))!,
      ),
    );

  const experience = section(page, "Experience");
  await expect(experience.getByRole("button", { name: /^Edit / })).toHaveCount(2);
  expect((await names(experience, "Edit")).sort()).toEqual([
    "Edit Engineer — Acme, Mar 2015 – Jun 2017",
    "Edit Engineer — Acme, Sep 2019 – Present",
  ]);
  expect((await names(experience, "Delete")).sort()).toEqual([
    "Delete Engineer — Acme, Mar 2015 – Jun 2017",
    "Delete Engineer — Acme, Sep 2019 – Present",
  ]);
  expect(await names(section(page, "Hobbies"), "Edit")).toEqual([
    "Edit Chess (1 of 2)",
    "Edit Chess (2 of 2)",
  ]);

  await page.getByRole("button", { name: "Manage versions" }).click();
  const versions = page.getByRole("list", { name: "Your versions" });
  await expect(versions.getByRole("button", { name: /^Edit / })).toHaveCount(2);
  const versionNames = await names(versions, "Delete");
  expect(new Set(versionNames).size).toBe(2);
  expect(versionNames.every((name) => name.startsWith("Delete Backend, "))).toBe(true);
});

test("the profile's Resume language is a language tag, told under its field when it is not one, and saved as written canonically", async ({
  page,
}) => {
  await signIn(page, uniqueUser("language"));
  const language = page.getByLabel("Resume language");
  await expect(language).toHaveAccessibleDescription(/A language tag: en, de, pt-BR/);
  await page.getByLabel("Name", { exact: true }).fill("Jana Nováková");
  await language.fill("German");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(language).toHaveAttribute("aria-invalid", "true");
  await expect(language).toHaveAccessibleDescription(/must be a language tag \(BCP 47\)/);
  await expect(language).toBeFocused();

  await language.fill("de-at");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await expect(language).toHaveValue("de-AT");
  await page.reload();
  await expect(page.getByLabel("Resume language")).toHaveValue("de-AT");
});
