import AxeBuilder from "@axe-core/playwright";
import { THEME_NAMES } from "@app/resume/client";
import { expect, test, type Page } from "@playwright/test";
import { COMPLETE } from "../test/resume-fixtures.ts";
import { tokenFor } from "../test/tokens.ts";
import { severeViolations, uniqueUser } from "./helpers.ts";

/**
 * The text whose contrast axe leaves open ("incomplete": stackoverflow's
 * section titles, drawn over their own background beside a line drawn by a
 * pseudo-element), measured here: its colour, faded by its own and its
 * ancestors' opacity, against the nearest opaque background behind it. Each
 * below the 4.5:1 axe asks of it, as "selector: ratio".
 */
async function contrastAxeLeftOpen(page: Page): Promise<string[]> {
  const open = (await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze()).incomplete;
  const selectors = open.flatMap((rule) => rule.nodes.map((node) => node.target.join(" ")));
  return page.evaluate<string[]>(`(${MEASURED_BELOW_AA})(${JSON.stringify(selectors)})`);
}

/** Run in the page (as text: the e2e code has no DOM types). */
const MEASURED_BELOW_AA = `(targets) => {
  const rgba = (css) => (css.match(/[\\d.]+/g) ?? []).map(Number);
  const luminance = (rgb) =>
    rgb
      .map((v) => v / 255)
      .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const low = [];
  for (const target of targets) {
    const element = document.querySelector(target);
    if (!element) continue;
    let opacity = 1;
    for (let at = element; at; at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity);
    let background = [255, 255, 255];
    for (let at = element; at; at = at.parentElement) {
      const color = rgba(getComputedStyle(at).backgroundColor);
      if (color.length === 3 || color[3] === 1) {
        background = color.slice(0, 3);
        break;
      }
    }
    const [r, g, b, a = 1] = rgba(getComputedStyle(element).color);
    const alpha = a * opacity;
    const text = [r, g, b].map((v, i) => v * alpha + background[i] * (1 - alpha));
    const [light, dark] = [luminance(text), luminance(background)].sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    if (ratio < 4.5) low.push(target + ": " + ratio.toFixed(2));
  }
  return low;
}`;

/**
 * A themed page is what a recruiter reads: its text, links and lines of
 * dates must be readable against their background (WCAG's 4.5:1, 3:1 for
 * large text) in the light colour scheme and, where a theme has one, the
 * dark, with every section of the resume filled in, so that every kind of
 * element a theme styles is on the page.
 */
test("every theme's page of a complete resume passes axe, its contrast included, in a light and a dark colour scheme", async ({
  page,
}) => {
  const authorization = `Bearer ${await tokenFor(uniqueUser("contrast"))}`;
  const headers = { authorization, "content-type": "application/json" };
  const profile = await page.request.put("/me/profile", {
    headers,
    data: {
      name: "Grace Hopper",
      headline: "Rear Admiral",
      summary: "Wrote the first compiler.",
      email: "grace@example.com",
      phone: "+1 555 0100",
      city: "Arlington",
      region: "VA",
      country_code: "US",
      links: { site: "https://grace.example/", github: "https://github.com/grace" },
    },
  });
  expect(profile.status()).toBe(200);
  for (const [collection, body] of Object.entries(COMPLETE)) {
    const created = await page.request.post(`/me/${collection}`, { headers, data: body });
    expect(created.status(), collection).toBe(201);
  }
  await page.setExtraHTTPHeaders({ authorization });
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const theme of THEME_NAMES) {
      await page.goto(`/me/resume?format=html&theme=${theme}`);
      await expect(page.getByText("Grace Hopper").first()).toBeVisible();
      for (const violation of await severeViolations(new AxeBuilder({ page })))
        found.push(`${theme}, ${colorScheme}: ${violation}`);
      for (const low of await contrastAxeLeftOpen(page)) found.push(`${theme}, ${colorScheme}: ${low}`);
    }
  }
  expect(found).toEqual([]);
});
