import { THEME_NAMES } from "@app/resume/client";
import { expect, test, type Page } from "@playwright/test";
import { tokenFor } from "../test/tokens.ts";
import { signIn, uniqueUser } from "./helpers.ts";

/** Every request a page makes and every console message about a blocked load. */
function watch(page: Page) {
  const requests: string[] = [];
  const blocked: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
  });
  return { requests, blocked };
}

async function personWithResume(page: Page) {
  const userId = uniqueUser("theme");
  const authorization = `Bearer ${await tokenFor(userId)}`;
  const headers = { authorization, "content-type": "application/json" };
  await page.request.put("/me/profile", {
    headers,
    data: { name: "Grace Hopper", headline: "Rear Admiral", links: { site: "https://grace.example/" } },
  });
  await page.request.post("/me/experience", {
    headers,
    data: {
      organization: "US Navy",
      title: "Programmer",
      start_date: "1943-12-01",
      responsibilities: ["COBOL"],
    },
  });
  return { userId, authorization };
}

for (const theme of THEME_NAMES) {
  test(`the ${theme} page loads nothing but itself and runs no script, with or without its policy`, async ({
    page,
  }) => {
    const { authorization } = await personWithResume(page);
    const url = `/me/resume?format=html&theme=${theme}`;
    const served = watch(page);
    await page.setExtraHTTPHeaders({ authorization });
    const response = await page.goto(url);
    expect(response!.status()).toBe(200);
    await expect(page.getByText("Grace Hopper").first()).toBeVisible();
    await expect(page.getByText("Programmer").first()).toBeVisible();
    expect(served.requests).toEqual([new URL(url, page.url()).href]);
    expect(served.blocked).toEqual([]);

    // The same page without its Content-Security-Policy: the page itself holds nothing that loads.
    const html = await (await page.request.get(url, { headers: { authorization } })).text();
    const bare = await page.context().newPage();
    const unguarded = watch(bare);
    await bare.setContent(html, { waitUntil: "load" });
    expect(unguarded.requests).toEqual([]);
    expect(await bare.evaluate<number>("document.scripts.length")).toBe(0);
    await bare.close();
  });
}

test("the editor's preview offers Markdown and each theme, and prints the chosen one", async ({ page }) => {
  await signIn(page, uniqueUser("preview"));
  await page.getByLabel("Name", { exact: true }).fill("Preview Person");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByTestId("preview")).toContainText("Preview Person");

  const style = page.getByLabel("Style");
  await expect(style.locator("option")).toHaveText([
    "Markdown",
    ...THEME_NAMES.map((name) => `Theme: ${name}`),
  ]);
  for (const theme of THEME_NAMES) {
    await style.selectOption(theme);
    const frame = page.frameLocator(`iframe[title="Resume preview in the ${theme} theme"]`);
    await expect(frame.getByText("Preview Person").first()).toBeVisible();
  }

  // Printing prints the frame's page, not the editor.
  const frame = page.frame({ url: "about:srcdoc" })!;
  const printedBy = (who: string) =>
    `window.print = () => document.body.setAttribute("data-printed", "${who}")`;
  await frame.evaluate(printedBy("frame"));
  await page.evaluate(printedBy("editor"));
  await page.getByRole("button", { name: "Print / Save as PDF" }).click();
  const printed = 'document.body.getAttribute("data-printed")';
  expect(await frame.evaluate<string | null>(printed)).toBe("frame");
  expect(await page.evaluate<string | null>(printed)).toBeNull();

  await style.selectOption("markdown");
  await expect(page.getByTestId("preview")).toContainText("Preview Person");
  await page.getByRole("button", { name: "Print / Save as PDF" }).click();
  expect(await page.evaluate<string | null>(printed)).toBe("editor");
});

test("a word longer than a phone's screen wraps on every theme's page instead of widening it", async ({
  page,
}) => {
  const authorization = `Bearer ${await tokenFor(uniqueUser("long-word"))}`;
  const headers = { authorization, "content-type": "application/json" };
  const word = "Supercalifragilistic".repeat(8);
  await page.request.put("/me/profile", {
    headers,
    data: { name: "Grace Hopper", headline: word, summary: `Builds ${word} systems.`, links: {} },
  });
  await page.request.post("/me/skills", { headers, data: { name: word, category: "tool" } });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.setExtraHTTPHeaders({ authorization });
  for (const theme of THEME_NAMES) {
    await page.goto(`/me/resume?format=html&theme=${theme}`);
    await expect(page.getByText("Grace Hopper").first()).toBeVisible();
    const width = await page.evaluate<number>("document.documentElement.scrollWidth");
    expect(width, theme).toBeLessThanOrEqual(375);
  }
});
