import type AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import pg from "pg";

export const uniqueUser = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** Signs in through the local development sign-in page and lands on the editor. */
export async function signIn(page: Page, userId: string) {
  await page.goto("/sign-in?next=/editor");
  await page.getByLabel("User id").fill(userId);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/editor$/);
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
}

export const section = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });

/** Opens the add form of a section and returns it. */
export async function openAddForm(page: Page, title: string, noun: string) {
  await section(page, title)
    .getByRole("button", { name: `Add ${noun}`, exact: true })
    .click();
  return section(page, title).getByRole("form", { name: `Add ${noun}` });
}

/** Axe's serious and critical findings, one line each, for what `axe` was told to look at. */
export async function severeViolations(axe: AxeBuilder): Promise<string[]> {
  const results = await axe.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * Runs one statement on the e2e database (global-setup.ts), for what no API
 * does: a link or token whose expiry has passed, a row dated on a chosen day.
 */
export async function sql(statement: string, ...params: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement, params);
  } finally {
    await client.end();
  }
}
