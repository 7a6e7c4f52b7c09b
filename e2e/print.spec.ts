import { expect, test, type Page } from "@playwright/test";
import { tokenFor } from "../test/tokens.ts";
import { signIn, uniqueUser } from "./helpers.ts";

/** A person whose resume has links and more jobs than the preview shows at once, signed in to the editor. */
async function signedInWithLongResume(page: Page) {
  const userId = uniqueUser("print");
  const headers = { authorization: `Bearer ${await tokenFor(userId)}`, "content-type": "application/json" };
  await page.request.put("/me/profile", {
    headers,
    data: {
      name: "Dana Smith",
      links: { github: "https://github.com/dana-smith", linkedin: "https://www.linkedin.com/in/dana-smith" },
    },
  });
  for (let job = 1; job <= 12; job++)
    await page.request.post("/me/experience", {
      headers,
      data: {
        organization: `Company ${job}`,
        title: `Engineer ${job}`,
        start_date: `20${String(job).padStart(2, "0")}-01-01`,
        responsibilities: [`Shipped release ${job}`, `Ran on-call rotation ${job}`],
      },
    });
  await signIn(page, userId);
}

test("printing the Markdown preview shows each link's address after it", async ({ page }) => {
  await signedInWithLongResume(page);
  const github = page.getByTestId("preview").getByRole("link", { name: "github" });
  await expect(github).toBeVisible();
  const after = () =>
    page.evaluate<string>(
      `getComputedStyle(document.querySelector('[data-testid=preview] a[href="https://github.com/dana-smith"]'), "::after").content`,
    );

  expect(await after()).toBe("none");
  await page.emulateMedia({ media: "print" });
  expect(await after()).toContain("https://github.com/dana-smith");
});

test("the browser's own print of the editor with a theme shows the whole themed page", async ({ page }) => {
  await signedInWithLongResume(page);
  await page.getByLabel("Style").selectOption("even");
  await expect(
    page.frameLocator("[data-testid=theme-preview]").getByText("Engineer 1", { exact: true }),
  ).toBeVisible();
  const heights = () =>
    page.evaluate<{ frame: number; page: number }>(`(() => {
      const frame = document.querySelector("[data-testid=theme-preview]");
      return {
        frame: frame.getBoundingClientRect().height,
        page: frame.contentDocument.documentElement.scrollHeight,
      };
    })()`);

  // On screen the frame scrolls: the page is taller than it.
  const screen = await heights();
  expect(screen.page).toBeGreaterThan(screen.frame + 100);

  await page.emulateMedia({ media: "print" });
  await expect.poll(async () => (await heights()).frame).toBeGreaterThan(screen.frame);
  const printed = await heights();
  expect(printed.frame).toBeGreaterThanOrEqual(printed.page);
  await page.screenshot({ path: test.info().outputPath("editor-printed-with-theme.png"), fullPage: true });

  // Back on screen, the frame scrolls again.
  await page.emulateMedia({ media: "screen" });
  await expect.poll(async () => (await heights()).frame).toBe(screen.frame);
});
