import AxeBuilder from "@axe-core/playwright";
import { THEME_NAMES } from "@app/resume/client";
import { expect, test } from "@playwright/test";
import { COMPLETE } from "../test/resume-fixtures.ts";
import { tokenFor } from "../test/tokens.ts";
import { severeViolations, uniqueUser } from "./helpers.ts";

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
    }
  }
  expect(found).toEqual([]);
});
