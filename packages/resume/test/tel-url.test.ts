import { describe, expect, it } from "vitest";
import type { WholeResume } from "../src/index.ts";
import { resumeOutline } from "../src/documents/resume-outline.ts";
import { telUrl } from "../src/profile-place.ts";

describe("telUrl", () => {
  it("links a number as people write it: its digits, and a leading plus", () => {
    expect(telUrl("+1 503 555 0100")).toBe("tel:+15035550100");
    expect(telUrl("+1 (503) 555-0100")).toBe("tel:+15035550100");
    expect(telUrl("+33 1 42 68 53 00")).toBe("tel:+33142685300");
    expect(telUrl("(503) 555.0100")).toBe("tel:5035550100");
    expect(telUrl("030 1234567")).toBe("tel:0301234567");
    expect(telUrl("030/1234567")).toBe("tel:0301234567");
    expect(telUrl("112")).toBe("tel:112");
  });

  it("leaves out a trunk prefix in brackets after the country code: it is not dialled from abroad", () => {
    expect(telUrl("+44 (0)20 7946 0958")).toBe("tel:+442079460958");
    expect(telUrl("+49 (0)30 1234567")).toBe("tel:+49301234567");
    expect(telUrl("+49(0)30-1234567")).toBe("tel:+49301234567");
    // Without a country code, the 0 is dialled.
    expect(telUrl("(0)20 7946 0958")).toBe("tel:02079460958");
  });

  it("writes an extension as RFC 3966's ext parameter, not as more digits of the number", () => {
    expect(telUrl("+1 555-123-4567 ext. 89")).toBe("tel:+15551234567;ext=89");
    expect(telUrl("+1 555-123-4567 Ext 89")).toBe("tel:+15551234567;ext=89");
    expect(telUrl("+1 555-123-4567 extension 89")).toBe("tel:+15551234567;ext=89");
    expect(telUrl("555-123-4567 x89")).toBe("tel:5551234567;ext=89");
    expect(telUrl("+1-555-123-4567;ext=89")).toBe("tel:+15551234567;ext=89");
  });

  it("links the first of two numbers only", () => {
    expect(telUrl("0151 1234567 / 030 123456")).toBe("tel:01511234567");
    expect(telUrl("+49 151 1234567, +49 30 123456")).toBe("tel:+491511234567");
    expect(telUrl("+49 151 1234567; 030 123456")).toBe("tel:+491511234567");
    expect(telUrl("+49 151 1234567\n030 123456")).toBe("tel:+491511234567");
  });

  it("reads past a label before the number and words after it", () => {
    expect(telUrl("Mobile: +49 151 1234567")).toBe("tel:+491511234567");
    expect(telUrl("+49 151 1234567 (WhatsApp)")).toBe("tel:+491511234567");
    expect(telUrl("+1 503 555 0100.")).toBe("tel:+15035550100");
  });

  it("reads the digits of other scripts as the digits they are", () => {
    expect(telUrl("+٩٧١ ٥٠ ١٢٣ ٤٥٦٧")).toBe("tel:+971501234567");
    expect(telUrl("۰۲۱ ۱۲۳۴ ۵۶۷۸")).toBe("tel:02112345678");
  });

  it("gives no link for text that is not one number: no link is better than a wrong number", () => {
    for (const phone of [
      "",
      "call me",
      "+",
      "ask for it",
      "1-800-FLOWERS", // a number of letters: its digits alone dial another one
      "0151 1234567 030 123456", // two numbers side by side: 17 digits
      "+49 151 1234567 or +49 30 123456",
      "12",
    ])
      expect(telUrl(phone), phone).toBeNull();
  });
});

describe("the phone in the documents' contact line", () => {
  const resume = (phone: string) =>
    ({
      profile: {
        id: "00000000-0000-4000-8000-000000000000",
        created_at: "2026-11-26T10:00:00.000Z",
        updated_at: "2026-11-26T10:00:00.000Z",
        name: "Dana Smith",
        headline: null,
        summary: null,
        location: null,
        city: null,
        region: null,
        postal_code: null,
        country_code: null,
        email: null,
        phone,
        links: {},
        goals_summary: null,
      },
      experience: [],
      education: [],
      skills: [],
      certifications: [],
      hobbies: [],
      goals: [],
    }) as unknown as WholeResume;

  it("shows the number as typed, linked to the number a phone dials", () => {
    expect(resumeOutline(resume("+44 (0)20 7946 0958")).contact).toEqual([
      { text: "+44 (0)20 7946 0958", url: "tel:+442079460958" },
    ]);
  });

  it("shows text that is not a number as typed, with no link", () => {
    expect(resumeOutline(resume("ask for it")).contact).toEqual([{ text: "ask for it" }]);
  });
});
