import { parse, type DefaultTreeAdapterTypes } from "parse5";
import { describe, expect, it } from "vitest";
import type { WholeResume } from "../src/index.ts";
import { offlinePage } from "../src/themes/offline-page.ts";
import { renderResumeHtml } from "../src/themes/render-resume-html.ts";
import { THEME_NAMES } from "../src/themes/theme-names.ts";

const stored = (i: number) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  created_at: "2026-11-26T10:00:00.000Z",
  updated_at: "2026-11-26T10:00:00.000Z",
});

/** A first resume as a new user fills it in: a free-text location, links, the optional fields of each entry. */
const RESUME = {
  profile: {
    ...stored(0),
    name: "Dana Smith",
    headline: "Backend engineer",
    summary: "Builds billing systems.",
    location: "Portland, OR",
    city: null,
    region: null,
    postal_code: null,
    country_code: null,
    email: "dana@example.org",
    phone: "+1 503 555 0100",
    links: { github: "https://github.com/dana-smith", portfolio: "https://dana.example/work" },
    goals_summary: null,
  },
  experience: [
    {
      ...stored(1),
      organization: "Acme",
      title: "Senior Engineer",
      location: "Berlin",
      employment_type: "full-time",
      start_date: "2019-04-01",
      end_date: null,
      responsibilities: ["Run the billing team"],
      accomplishments: ["Cut invoice time by 80%"],
    },
  ],
  education: [
    {
      ...stored(2),
      institution: "Reed College",
      degree: "BA",
      field_of_study: "Physics",
      location: "Eugene, OR",
      start_date: "2010-09-01",
      end_date: "2014-05-30",
      gpa: "3.9",
      honors: "Magna cum laude",
      activities: "Chess club",
    },
  ],
  skills: [
    {
      ...stored(3),
      name: "Go",
      category: "language",
      proficiency: "expert",
      years_experience: 6,
      keywords: ["goroutines", "gRPC"],
    },
  ],
  certifications: [],
  hobbies: [{ ...stored(4), name: "Climbing", description: "Bouldering on weekends" }],
  goals: [],
} as unknown as WholeResume;

/** The text a reader sees: the body's text, without the style and script that browsers do not show. */
function visibleText(html: string): string {
  const textOf = (node: DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document): string => {
    if (node.nodeName === "#text") return (node as DefaultTreeAdapterTypes.TextNode).value;
    if (node.nodeName === "style" || node.nodeName === "script" || node.nodeName === "title") return "";
    return "childNodes" in node ? node.childNodes.map(textOf).join("") : "";
  };
  return textOf(parse(html)).replace(/\s+/g, " ");
}

describe.each(THEME_NAMES)("the %s page of a new user's resume", (theme) => {
  it("shows every field the data has, the location without a trailing comma, no stray separator", async () => {
    const text = visibleText(await renderResumeHtml(RESUME, theme));
    for (const shown of [
      "Portland, OR",
      "+1 503 555 0100",
      "github.com/dana-smith",
      "dana.example/work",
      "Eugene, OR",
      "3.9",
      "Magna cum laude",
      "Chess club",
      "expert",
      "goroutines",
      "gRPC",
      "Bouldering on weekends",
    ])
      expect(text).toContain(shown);
    expect(text).not.toMatch(/OR,/);
    // A separator has something on both sides of it.
    expect(text).not.toMatch(/·\s*(?:$|[·,])|(?:^|[·,])\s*·/);
  });

  it("is sent without the theme's indentation: no line starts with white space", async () => {
    const page = await renderResumeHtml(RESUME, theme);
    expect(page.split("\n").filter((line) => /^[ \t]/.test(line))).toEqual([]);
    // Which holds only where the theme's CSS shows no text's white space as it is.
    expect(page).not.toMatch(/white-space\s*:\s*(pre|break-spaces)/i);
  });

  it("shows a place given in parts (city, region, country) as one line", async () => {
    const profile = {
      ...RESUME.profile!,
      location: null,
      city: "Portland",
      region: "OR",
      country_code: "US",
    };
    const text = visibleText(await renderResumeHtml({ ...RESUME, profile }, theme));
    expect(text).toContain("Portland, OR, US");
    expect(text).not.toMatch(/US,/);
  });
  it("shows the dates of an entry that reads as years as years alone, and other entries' with their months", async () => {
    const monthly = { ...RESUME.experience[0]!, start_date: "2019-01-01", date_precision: "month" };
    const yearly = (i: number, start: string, end: string) => ({
      ...RESUME.experience[0]!,
      ...stored(i),
      organization: `Org ${i}`,
      start_date: start,
      end_date: end,
      date_precision: "year",
    });
    const resume = {
      ...RESUME,
      experience: [monthly, yearly(5, "2015-01-01", "2018-01-01")],
      education: [
        { ...RESUME.education[0]!, start_date: "2010-01-01", end_date: "2014-01-01", date_precision: "year" },
      ],
      certifications: [
        {
          ...stored(6),
          name: "CKA",
          issuing_organization: "CNCF",
          issue_date: "2020-01-01",
          expiration_date: null,
          credential_id: null,
          credential_url: null,
          type: "professional",
          date_precision: "year",
        },
      ],
    } as unknown as WholeResume;
    const text = visibleText(await renderResumeHtml(resume, theme));
    expect(text).toMatch(/2015 [-–] 2018/);
    expect(text).toMatch(/2010 [-–] 2014/);
    expect(text).toMatch(/\b2020\b/);
    const month = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?";
    expect(text).not.toMatch(new RegExp(`${month} (?:2010|2014|2015|2018|2020)\\b`));
    expect(text).toMatch(/Jan 2019/);
  });
});

describe("the stackoverflow page", () => {
  it("writes the degree and its field apart, September as Sep, and the phone's link without spaces", async () => {
    const page = await renderResumeHtml(RESUME, "stackoverflow");
    const text = visibleText(page);
    expect(text).toContain("BA, Physics");
    expect(text).toContain("Sep 2010");
    expect(text).not.toContain("Sept");
    expect(page).toContain('href="tel:+15035550100"');
  });

  it("prints each date's own month on a server west of UTC", async () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      expect(new Date("2010-09-01").getDate()).toBe(31); // the zone took: midnight UTC is the day before here
      const text = visibleText(await renderResumeHtml(RESUME, "stackoverflow"));
      expect(text).toContain("Sep 2010 - May 2014");
      expect(text).toContain("Apr 2019 - Current");
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe("the white space of a themed page", () => {
  const INDENTED = `<html><head><title>  Dana
      Smith</title></head><body>
      <div>
        <p>Two  spaces\tand a tab stay;
           a line break with its indentation becomes one line break.</p>
        <pre>  keep
    this   as
  it is <code>  and
      this</code>
</pre>
      </div>
    </body></html>`;

  it("writes a run of white space holding a line break as one line break, and nothing else", () => {
    const page = offlinePage(INDENTED);
    expect(page).toContain(
      "<p>Two  spaces\tand a tab stay;\na line break with its indentation becomes one line break.</p>",
    );
    expect(page).toContain("<title>  Dana\nSmith</title>");
    expect(visibleText(page)).toBe(visibleText(INDENTED));
  });

  it("keeps preformatted text as it is, in the elements inside it too", () => {
    expect(offlinePage(INDENTED)).toContain(
      INDENTED.slice(INDENTED.indexOf("<pre>"), INDENTED.indexOf("</pre>") + 6),
    );
  });
});
