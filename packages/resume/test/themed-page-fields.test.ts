import { parse, type DefaultTreeAdapterTypes } from "parse5";
import { describe, expect, it } from "vitest";
import type { WholeResume } from "../src/index.ts";
import { readsRightToLeft } from "../src/documents/bidi-layout.ts";
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

  it("may be zoomed: its viewport forbids neither zooming nor a scale past 1", async () => {
    const page = await renderResumeHtml(RESUME, theme);
    const viewport = /<meta name="viewport" content="([^"]*)"/.exec(page)?.[1];
    expect(viewport).toMatch(/width=device-width/);
    expect(viewport).not.toMatch(/user-scalable|maximum-scale/i);
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

  it("links the phone to the number a phone dials, as the files do, and a phone that is not one number to nothing", async () => {
    // The themes' own links: even dropped the spaces only (tel:+44(0)2079460958, tel:askforit,
    // tel:+15551234567ext.89), stackoverflow linked the text as typed.
    const withPhone = (phone: string) =>
      ({ ...RESUME, profile: { ...RESUME.profile!, phone } }) as WholeResume;
    for (const [phone, url] of [
      ["+44 (0)20 7946 0958", "tel:+442079460958"],
      ["+1 555 123 4567 ext. 89", "tel:+15551234567;ext=89"],
      ["+44 (0)20 7946 0958 ext. 12", "tel:+442079460958;ext=12"],
      // A line break between two numbers: the first one, not their digits run together.
      ["+49 151 1234567\n030 123456", "tel:+491511234567"],
    ]) {
      const page = await renderResumeHtml(withPhone(phone!), theme);
      expect(
        [...page.matchAll(/href="(tel:[^"]*)"/g)].map((link) => link[1]),
        phone,
      ).toEqual([url]);
      expect(visibleText(page)).toContain(phone!.replace(/\s+/g, " "));
    }
    const words = await renderResumeHtml(withPhone("ask for it"), theme);
    expect(words).not.toContain("tel:");
    expect(visibleText(words)).toContain("ask for it");
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
      experience: [monthly, yearly(5, "2015-01-01", "2018-01-01"), yearly(7, "2012-03-01", "2012-11-30")],
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
    // A range within one year reads as that year (stackoverflow printed "2012 - 2012").
    expect(text).toMatch(/\b2012\b/);
    expect(text).not.toMatch(/2012 [-–] 2012/);
    const month = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?";
    expect(text).not.toMatch(new RegExp(`${month} (?:2010|2014|2015|2018|2020)\\b`));
    expect(text).toMatch(/Jan 2019/);
  });
});

/**
 * Lines a person might type that Markdown, CommonMark's or a theme's own,
 * would read as markup: emphasis, headings, lists, quotes, rules, code,
 * links, raw HTML, escapes, an indented code block.
 */
const TYPED_LINES = [
  "Wrote __init__.py and 2*3*4 = 24",
  "# big",
  "1. first",
  "2) second",
  "> quoted",
  "- item",
  "+ item",
  "* item",
  "===",
  "---",
  "-- -",
  "**bold** *em* _em_ __strong__ `code` ~~gone~~",
  "[x](https://a.example/) ![i](https://a.example/i.png) <https://a.example/> www.example.com",
  "[ref]: https://a.example/",
  "<b>x</b> &amp; &#60; \\*not em\\* a\\",
  "    indented, not code",
  "```",
  "trailing\\",
];

/** A resume with `lines` in each free-text field a theme shows, as one text of several lines and one item a line. */
function resumeTyping(lines: string[]): WholeResume {
  const [job] = RESUME.experience;
  const [school] = RESUME.education;
  return {
    ...RESUME,
    profile: {
      ...RESUME.profile!,
      // Two paragraphs: lines apart with LF, then with CR LF (what a form's text area sends).
      summary: `${lines.join("\n")}\n\n${lines.join("\r\n")}`,
    },
    experience: [
      { ...job!, responsibilities: [...lines, lines.join("\n")], accomplishments: [lines.join("\n")] },
    ],
    education: [{ ...school!, honors: lines.join("\n"), activities: lines.join("\r\n") }],
    hobbies: [{ ...RESUME.hobbies[0]!, description: lines.join("\n") }],
  } as WholeResume;
}

/**
 * The page's text as a reader sees its lines: a `<br>` and the edges of a
 * block end a line, white space runs are one space, blank lines are left out.
 */
function visibleLines(html: string): string[] {
  const BLOCKS = /^(?:p|div|li|ul|ol|h[1-6]|header|section|article|blockquote|pre|hr|main|nav)$/;
  const textOf = (node: DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document): string => {
    if (node.nodeName === "#text")
      return (node as DefaultTreeAdapterTypes.TextNode).value.replace(/\s+/g, " ");
    if (node.nodeName === "style" || node.nodeName === "script" || node.nodeName === "title") return "";
    if (node.nodeName === "br") return "\n";
    const text = "childNodes" in node ? node.childNodes.map(textOf).join("") : "";
    return BLOCKS.test(node.nodeName) ? `\n${text}\n` : text;
  };
  return textOf(parse(html))
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The tags of the page's body, in order. */
function bodyTags(html: string): string[] {
  const body = html.slice(html.indexOf("<body"));
  return [...body.matchAll(/<([a-z][a-z0-9]*)/g)].map((match) => match[1]!);
}

describe.each(THEME_NAMES)("the %s page of text that reads as Markdown", (theme) => {
  const typed = TYPED_LINES.map((line) => line.replace(/\s+/g, " ").trim());

  it("shows every line of each free-text field as typed, each on its own line", async () => {
    const lines = visibleLines(await renderResumeHtml(resumeTyping(TYPED_LINES), theme));
    const runs = {
      // The summary's two paragraphs, one after the other.
      summary: [...typed, ...typed],
      // Each responsibility a line (highlights: the responsibilities, then the accomplishment).
      bullets: [...typed, ...typed, ...typed],
      honors: [`Honors: ${typed[0]}`, ...typed.slice(1)],
      activities: [`Activities: ${typed[0]}`, ...typed.slice(1)],
      hobby: typed,
    };
    // Whole lines, one after another.
    const text = `\n${lines.join("\n")}\n`;
    for (const [field, run] of Object.entries(runs)) expect(text, field).toContain(`\n${run.join("\n")}\n`);
  });

  it("sets a paragraph of free text a line below the one before", async () => {
    const page = await renderResumeHtml(resumeTyping(["First paragraph."]), theme);
    const [first, second] = [...page.matchAll(/<p[^>]*>(?:<[^>]+>)*First paragraph\./g)].map((m) => m[0]);
    expect(first).toBeDefined();
    // The second starts a line below the first: a margin of its own, or the theme's for <p>.
    if (theme === "stackoverflow") expect(second).toMatch(/^<p [^>]*style="margin:1em 0 0"/);
    else expect(second).not.toMatch(/margin/);
  });

  it("makes no element of it: the page has the elements it has for plain words on the same lines", async () => {
    const page = await renderResumeHtml(resumeTyping(TYPED_LINES), theme);
    const plain = await renderResumeHtml(resumeTyping(TYPED_LINES.map((_, i) => `plain ${i}`)), theme);
    expect(bodyTags(page)).toEqual(bodyTags(plain));
    // Lines apart: a line break between each two lines of a text, none around a one-line bullet.
    const breaks = bodyTags(plain).filter((tag) => tag === "br").length;
    expect(breaks).toBeGreaterThanOrEqual(6 * (TYPED_LINES.length - 1));
  });
});

type Node = DefaultTreeAdapterTypes.Node;
const attribute = (node: Node, name: string) =>
  "attrs" in node ? node.attrs.find((attr) => attr.name === name)?.value : undefined;

/** The nodes of a page, each after its parent. */
function* nodesOf(node: Node): Generator<Node> {
  yield node;
  if ("childNodes" in node) for (const child of node.childNodes) yield* nodesOf(child);
}

/**
 * The direction a browser lays `element` out in (HTML's "directionality"):
 * its own or its nearest ancestor's `dir`; `auto` is that of the first letter
 * of a strong direction in its text, leaving out elements with a `dir` of
 * their own, left to right when there is none.
 */
function directionOf(element: Node): "ltr" | "rtl" {
  for (
    let node: Node | undefined = element;
    node;
    node = "parentNode" in node ? (node.parentNode ?? undefined) : undefined
  ) {
    const dir = attribute(node, "dir")?.toLowerCase();
    if (dir === "ltr" || dir === "rtl") return dir;
    if (dir === "auto") {
      const ownText = (child: Node): string =>
        child.nodeName === "#text"
          ? (child as DefaultTreeAdapterTypes.TextNode).value
          : attribute(child, "dir") === undefined && "childNodes" in child
            ? child.childNodes.map(ownText).join("")
            : "";
      const text = "childNodes" in node ? node.childNodes.map(ownText).join("") : "";
      return readsRightToLeft(text.replace(/\s+/g, " ")) ? "rtl" : "ltr";
    }
  }
  return "ltr";
}

/** The innermost element whose text holds `text`. */
/** A node's text, every descendant's joined. */
const textOf = (node: Node): string =>
  node.nodeName === "#text"
    ? (node as DefaultTreeAdapterTypes.TextNode).value
    : "childNodes" in node
      ? node.childNodes.map(textOf).join("")
      : "";

function elementHolding(html: string, text: string): Node {
  const holding = [...nodesOf(parse(html))].filter(
    (node) => node.nodeName !== "#text" && textOf(node).replace(/\s+/g, " ").includes(text),
  );
  expect(holding, text).not.toEqual([]);
  return holding.at(-1)!;
}

describe.each(THEME_NAMES)("the %s page of text in right-to-left scripts", (theme) => {
  const HEBREW = "בניתי מערכת ב-React Native (2020) עם 3 אנשים";
  const ARABIC = "طوّرت نظاماً بـ React Native (2020) مع 3 أشخاص";
  // A paragraph's direction is its first strong letter's, as in the PDF and the Word file.
  const ENGLISH_FIRST = "React Native: בניתי מערכת עם 3 אנשים";
  const ENGLISH = "Built the billing system (2019) with 4 people";
  const rightToLeft = {
    ...RESUME,
    profile: {
      ...RESUME.profile!,
      name: "דנה כהן",
      summary: "מפתחת מובייל (2015) עם ניסיון ב-React Native.",
    },
    experience: [
      {
        ...RESUME.experience[0]!,
        organization: "אקמה בע״מ",
        title: "מהנדסת בכירה",
        responsibilities: [HEBREW, ENGLISH, ARABIC, ENGLISH_FIRST],
      },
    ],
    hobbies: [{ ...RESUME.hobbies[0]!, name: "טיפוס", description: "בסופי שבוע (שבת)" }],
  } as WholeResume;

  it("lays each text block out in the direction of its first strong letter, as the PDF and Word do", async () => {
    const page = await renderResumeHtml(rightToLeft, theme);
    const texts = [
      HEBREW,
      ARABIC,
      ENGLISH,
      ENGLISH_FIRST,
      "דנה כהן",
      "מהנדסת בכירה",
      "אקמה בע״מ",
      "מפתחת מובייל (2015) עם ניסיון ב-React Native.",
      "בסופי שבוע (שבת)",
      "Cut invoice time by 80%",
    ];
    const directions = Object.fromEntries(
      texts.map((text) => [text, directionOf(elementHolding(page, text))]),
    );
    expect(directions).toEqual(
      Object.fromEntries(texts.map((text) => [text, readsRightToLeft(text) ? "rtl" : "ltr"])),
    );
    expect(directions[HEBREW]).toBe("rtl");
    expect(directions[ENGLISH_FIRST]).toBe("ltr");
  });

  it("lays a left-to-right resume out as before: every element left to right", async () => {
    const page = await renderResumeHtml(RESUME, theme);
    const rightToLeftElements = [...nodesOf(parse(page))].filter(
      (node) => node.nodeName !== "#text" && "attrs" in node && directionOf(node) === "rtl",
    );
    expect(rightToLeftElements).toEqual([]);
  });
});

describe("the even page", () => {
  it("lays an entry's line of dates alone out in the direction of the text before it", async () => {
    const [job] = RESUME.experience;
    const dated = {
      ...RESUME,
      experience: [
        {
          ...job!,
          organization: "אקמה בע״מ",
          title: "מהנדסת בכירה",
          start_date: "2007-01-15",
          end_date: "2008-02-15",
          responsibilities: ["בניתי מערכת ב-React Native (2020) עם 3 אנשים"],
        },
        { ...job!, start_date: "2009-01-15", end_date: "2010-03-15" },
      ],
    } as WholeResume;
    const page = await renderResumeHtml(dated, "even");
    const datesOf = (text: string) =>
      [...nodesOf(parse(page))].filter(
        (node) =>
          "childNodes" in node &&
          node.childNodes.some((child) => child.nodeName === "time") &&
          textOf(node).includes(text),
      );
    // even writes an entry's dates as a line of <time>s under its title. Their month names read left
    // to right; beside a Hebrew entry, the line stands where that entry's text does.
    expect(datesOf("Jan 2007").map(directionOf)).toEqual(["rtl"]);
    expect(datesOf("Jan 2009").map(directionOf)).toEqual(["ltr"]);
    // A right-to-left item's bullet stands at its right: the item gives up the list's 1em at the
    // left for room at the right, so that the bullet stays in the column (checked in Chromium).
    const shift = "<style>li:dir(rtl) { margin-left: -1em; margin-right: 1em; }</style></body>";
    expect(page).toContain(shift);
    // A page with no such item has no such rule: it stays as it was, byte for byte.
    expect(await renderResumeHtml(RESUME, "even")).not.toContain("li:dir(rtl)");
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
