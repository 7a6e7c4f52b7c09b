import { marked } from "marked";
import { describe, expect, it } from "vitest";
import type { WholeResume } from "../src/index.ts";
import { renderResumeMarkdown } from "../src/markdown/render-resume-markdown.ts";
import { renderResumeHtml } from "../src/themes/render-resume-html.ts";
import { THEME_NAMES } from "../src/themes/theme-names.ts";

/** An address of each kind GFM's autolinks find in text (a web address, a `www.` host, an email), as a person types them. */
const ADDRESSES = "see www.example.com, https://example.com/a?b=c and ada@example.org";

const stored = (i: number) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  created_at: "2026-11-26T10:00:00.000Z",
  updated_at: "2026-11-26T10:00:00.000Z",
});

/** The resume's own links: the profile's email and links, a certification's credential URL. */
const OWN_LINKS = [
  "mailto:grace@example.net",
  "https://github.com/grace",
  "https://grace.example/home",
  "https://credly.example/cka",
];

/** The addresses in each free-text field a reader meets them in, beside the resume's own links. */
const RESUME = {
  profile: {
    ...stored(0),
    name: "Grace Hopper",
    headline: ADDRESSES,
    summary: `${ADDRESSES}\n\n${ADDRESSES}`,
    location: "Arlington",
    city: null,
    region: null,
    postal_code: null,
    country_code: null,
    email: "grace@example.net",
    phone: null,
    links: { github: "https://github.com/grace", site: "https://grace.example/home" },
    goals_summary: ADDRESSES,
  },
  experience: [
    {
      ...stored(1),
      organization: "US Navy",
      title: "Rear Admiral",
      location: null,
      employment_type: "full-time",
      start_date: "1943-12-01",
      end_date: null,
      date_precision: "month",
      responsibilities: [ADDRESSES],
      accomplishments: [ADDRESSES],
    },
  ],
  education: [
    {
      ...stored(2),
      institution: "Yale",
      degree: "PhD",
      field_of_study: "Mathematics",
      location: null,
      start_date: "1930-09-01",
      end_date: "1934-06-30",
      date_precision: "month",
      gpa: null,
      honors: ADDRESSES,
      activities: ADDRESSES,
    },
  ],
  skills: [],
  certifications: [
    {
      ...stored(3),
      name: "CKA",
      issuing_organization: "CNCF",
      issue_date: "2021-05-01",
      expiration_date: null,
      date_precision: "month",
      credential_id: null,
      credential_url: "https://credly.example/cka",
      type: "professional",
    },
  ],
  hobbies: [{ ...stored(4), name: "Chess", description: ADDRESSES }],
  goals: [
    { ...stored(5), description: ADDRESSES, category: "learning", target_date: null, status: "active" },
  ],
} as unknown as WholeResume;

/** The `href` of each link of an HTML page or fragment, in order. */
const linkTargets = (html: string) =>
  [...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((match) => match[1]);

describe("addresses typed as text", () => {
  it("stay text when a GFM renderer (marked with its defaults) renders the Markdown; the resume's own links stay links", async () => {
    const markdown = renderResumeMarkdown(RESUME);
    const html = await marked.parse(markdown);
    expect(linkTargets(html)).toEqual(OWN_LINKS);
    // Shown as typed wherever they are: the headline, the summary's two paragraphs, the job's two
    // bullets, honors, activities, the hobby, the goals' summary and the goal.
    expect(html.split(ADDRESSES).length - 1).toBe(10);
    // The file itself reads as the text, a backslash before what would link it.
    expect(markdown).toContain("see www\\.example.com, https\\://example.com/a?b=c and ada\\@example.org");
    expect(markdown).toContain("[grace@example.net](mailto:grace@example.net)");
  });

  it.each(THEME_NAMES)("stay text on the %s page; the resume's own links stay links", async (theme) => {
    const page = await renderResumeHtml(RESUME, theme);
    const targets = linkTargets(page);
    expect(targets.filter((target) => /example\.(?:com|org)/.test(target!))).toEqual([]);
    expect(targets).toEqual(expect.arrayContaining(OWN_LINKS));
    expect(page).toContain(ADDRESSES);
  });
});
