import { describe, expect, it } from "vitest";
import { newSlug, SLUG_PATTERN } from "../src/store/share-links.ts";

describe("share link slugs", () => {
  it("hold at least 128 random bits, base64url, and 100,000 made are all different", () => {
    const slugs = Array.from({ length: 100_000 }, newSlug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs.slice(0, 1_000)) {
      expect(slug).toMatch(SLUG_PATTERN);
      expect(Buffer.from(slug, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    }
    // Random bytes, not a counter: every character position takes many values.
    for (let position = 0; position < 31; position += 1) {
      expect(new Set(slugs.slice(0, 1_000).map((s) => s[position])).size, String(position)).toBeGreaterThan(
        50,
      );
    }
  });
});
