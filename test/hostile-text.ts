import { createRequire } from "node:module";
import { LIMITS } from "@app/resume/client";

/**
 * Text meant to run script or load something once it is on a themed page.
 * The first are the cases of issue 22: a name that opens an element with a
 * handler, a link whose URL breaks out of its `href`, a style whose URL is
 * spelled with a CSS escape; then other spellings of CSS loads and of
 * breaking out of the page's `<title>`, `<style>` and Markdown links.
 */
export const THEME_PAYLOADS = [
  "<svg/onload=fetch('//x')>",
  `https://a.example/x"/autofocus/onfocus="fetch('//x')`,
  '<b style="background:u\\72l(//x)">',
  '<b style="background:\\75rl(https://x.example/escaped)">x</b>',
  '<b style="background:url(/**/https://x.example/comment)">x</b>',
  "<b style=\"background-image:image-set('https://x.example/set' 1x)\">x</b>",
  "<style>@import 'https://x.example/import.css'; b{background:u\\72l(https://x.example/style)}</style>",
  "</title><svg/onload=fetch('//x')>",
  "</style><img src=x onerror=fetch('//x')>",
  `[link](https://a.example/?u=https://b.example/"autofocus/onfocus="fetch('//x')") *https://c.example/"onmouseover="fetch('//x')*`,
  "javascript:fetch('//x')",
];

/**
 * Known XSS vectors: DOMPurify's test payloads (xss-vectors/, with their
 * source, commit and license).
 */
export const XSS_VECTORS: string[] = (
  createRequire(import.meta.url)("./xss-vectors/dompurify-vectors.json") as {
    vectors: { payload: string }[];
  }
).vectors.map((vector) => vector.payload);

/**
 * The service's own JSON for `PUT /me/resume`: `text` in every field a theme
 * can show, cut to each field's limit (a field that must be a URL gets it in
 * its query, or whole when it is one; the email cannot hold it). The service
 * refuses NUL, so a NUL in `text` is stored as U+FFFD, and a blank required
 * field, so it gets a word.
 */
export function resumeCarrying(text: string) {
  const storable = text.replaceAll("\u0000", "\ufffd");
  const line = storable.slice(0, LIMITS.nameLength);
  // A required field may not be blank.
  const required = line.trim() === "" ? "blank" : line;
  const long = storable.slice(0, LIMITS.textLength);
  const item = storable.slice(0, LIMITS.listItemLength);
  const url = /^https?:\/\/[^/]/.test(storable) ? storable : `https://a.example/?q=${storable}`;
  // A URL holds no whitespace (the API refuses it): the payload's is percent-encoded, as a browser would.
  const link = url.replace(/\s/g, encodeURIComponent).slice(0, LIMITS.urlLength);
  const dates = { start_date: "2020-01-15", end_date: "2021-02-28" };
  return {
    profile: {
      name: required,
      headline: line,
      summary: long,
      location: line,
      email: "hostile@example.org",
      links: { [line.trim().slice(0, 50) || "x"]: link, site: link },
      goals_summary: long,
    },
    experience: [
      {
        organization: required,
        title: required,
        location: line,
        ...dates,
        responsibilities: [item],
        accomplishments: [item],
      },
    ],
    education: [
      {
        institution: required,
        degree: required,
        field_of_study: line,
        location: line,
        ...dates,
        gpa: line,
        honors: long,
        activities: long,
      },
    ],
    skills: [{ name: required, category: "tool", proficiency: "advanced" }],
    certifications: [
      {
        name: required,
        issuing_organization: required,
        issue_date: "2022-03-01",
        credential_id: line,
        credential_url: link,
      },
    ],
    hobbies: [{ name: required, description: long }],
    goals: [{ description: `goal ${long}`.slice(0, LIMITS.textLength), category: "learning" }],
  };
}
