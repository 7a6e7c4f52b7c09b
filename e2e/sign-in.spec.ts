import { expect, test } from "@playwright/test";

test("the sign-in says which characters a user id may have, before and after a wrong one", async ({
  page,
}) => {
  await page.goto("/sign-in?next=/editor");
  // A title of its own, not the home page's "Resume".
  await expect(page).toHaveTitle("Sign in — Resume");
  const user = page.getByLabel("User id");
  const rule = /letters, digits and \. _ @ - only.*up to 100/i;
  await expect(user).toHaveAttribute("title", rule);
  await expect(user).toHaveAccessibleDescription(rule);
  await expect(page.getByText(rule)).toBeVisible();

  await user.fill("Dana Smith");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  const message = await page.evaluate<string>('document.getElementById("user").validationMessage');
  expect(message).toMatch(rule);
  expect(message).not.toContain("Please match the requested format");
  expect(message.match(/\bonly\b/g)).toHaveLength(1);

  // Corrected, the same field signs in.
  await user.fill("dana.smith");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/editor$/);
});
