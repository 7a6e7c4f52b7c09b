import { expect, it } from "vitest";
import { renderResumeDocx } from "../src/documents/render-resume-docx.ts";
import { docxOpenedByLibreOffice, hasLibreOffice, hasPoppler } from "../../../test/documents.ts";

const CONTACT = [
  { text: "Flat 4, 221B Baker Street, Marylebone, London NW1 6XE, United Kingdom" },
  {
    text: "zoe.lukasiewicz-angstrom@example-mail-provider.org",
    url: "mailto:zoe.lukasiewicz-angstrom@example-mail-provider.org",
  },
  { text: "+44 20 7946 0958", url: "tel:+442079460958" },
  { text: "github: github.com/zoe-lukasiewicz", url: "https://github.com/zoe-lukasiewicz" },
  {
    text: "linkedin: www.linkedin.com/in/zoe-lukasiewicz-angstrom",
    url: "https://www.linkedin.com/in/zoe-lukasiewicz-angstrom",
  },
];

it.skipIf(!hasLibreOffice || !hasPoppler)(
  "breaks the Word file's contact line between its parts only, never inside an address, on either paper",
  async () => {
    for (const paper of ["a4", "letter"] as const) {
      const outline = {
        name: "Zoë Łukasiewicz",
        headline: null,
        contact: CONTACT,
        sections: [],
        language: null,
      };
      const text = await docxOpenedByLibreOffice(new Uint8Array(await renderResumeDocx(outline, paper)));
      const lines = text.split("\n").map((line) => line.trim());
      // As LibreOffice lays the file out: each part whole on one of the lines.
      for (const { text: part } of CONTACT)
        expect(
          lines.some((line) => line.includes(part)),
          `${paper}: ${part}`,
        ).toBe(true);
    }
  },
  60_000,
);
