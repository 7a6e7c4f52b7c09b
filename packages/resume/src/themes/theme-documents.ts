import { datedInYears, fullDate, SECTIONS } from "../json-resume/json-resume-mapping.ts";
import type { JsonResume } from "../json-resume/to-json-resume.ts";
import { escapeHtml, escapeHtmlLines } from "./theme-text-escaping.ts";
import type { ThemeName } from "./theme-names.ts";
import { profilePlace, telUrl } from "../profile-place.ts";
import type { ThemeTextLayout } from "./text-directions.ts";

type Item = Record<string, unknown>;

/**
 * Our JSON Resume export (toJsonResume) holds every field, but each theme
 * reads only some JSON Resume keys, some under other names than the export
 * writes, and none reads its `x-` properties. Given the export as it is, a
 * theme drops what it does not read and writes separators for parts that
 * are absent ("Portland, OR," in stackoverflow: it ends every location part
 * but the region with a comma). So each theme is given a document in the
 * keys its template reads (node_modules/jsonresume-theme-<name>, at the
 * version package.json pins), and what it has no key for is added to its
 * page where the theme shows the like (`page`).
 */
interface ThemeAdapter {
  /** What the theme's render function is given besides the document. */
  renderOptions?: Record<string, unknown>;
  /** The document the theme renders, made from the export (without `meta`). */
  document(exported: JsonResume): JsonResume;
  /** The theme's page with what it had no key for added; runs on the rendered page, before sanitizing. */
  page?(html: string, exported: JsonResume): string;
  /** What the theme's CSS does to its text that its tags do not say (text-directions.ts). */
  textLayout?: ThemeTextLayout;
  /**
   * CSS after the theme's own, giving the colours of its text that a reader
   * cannot tell from their background a darker shade of the same colour, so
   * that they reach WCAG's 4.5:1 (the test: e2e/themes-contrast.spec.ts).
   */
  readableColours?: string;
}

const ADAPTERS: Record<ThemeName, ThemeAdapter> = {
  // even reads basics.location.city (and countryCode), profiles' url and network, and of
  // skills and interests only name and keywords (a skill's level becomes its first keyword); education has no key for a score, honors
  // or place, so they are written into the entry's header as even writes dates (evenPage).
  even: {
    document: (exported) => ({
      ...common(exported),
      basics: withLocation(exported.basics, "city"),
      // Its level first, then its keywords: even shows a skill's keywords as its tags.
      skills: items(exported.skills).map(({ level, keywords, ...skill }) => ({
        ...skill,
        keywords: present([level, ...strings(keywords)]),
      })),
      interests: items(exported.interests).map(({ "x-description": description, ...interest }) => ({
        ...interest,
        keywords: present([description]),
      })),
    }),
    page: (html, exported) => evenPage(evenYears(html), exported),
    // Its lists keep 1em at the left for their bullets (`ol,ul{padding-left:1em}`).
    textLayout: { listIndent: "1em" },
    // Its light scheme's grey (#6c7781, the profiles' networks and the dates) was 4.15:1 on
    // its header's background; the dark scheme has its own variable.
    readableColours: ":root { --color-secondary-light: #5e6973; }",
  },
  // stackoverflow writes the region without a trailing comma, shows a profile only as
  // its username, education's score as `gpa` and its place as `location`, and a summary
  // (its own light Markdown) under entries and interests. It runs the degree and the field
  // together ("BA Physics"): the degree is given both, as the files write them ("BA, Physics").
  stackoverflow: {
    // Its own default, British English, writes September "Sept" where the rest of the resume says "Sep".
    renderOptions: { language: "en-US" },
    document: (exported) => {
      const basics = withLocation(exported.basics, "region");
      if (basics && Array.isArray(basics.profiles))
        basics.profiles = items(basics.profiles).map((profile) => ({
          ...profile,
          username: profileText(profile),
        }));
      const { work, ...document } = common(exported);
      return {
        ...document,
        basics,
        work: items(work).map((job) => atLocalNoon(job, ["startDate", "endDate"])),
        education: items(exported.education).map(
          ({
            studyType,
            area,
            score,
            "x-location": location,
            "x-honors": honors,
            "x-activities": activities,
            ...entry
          }) => ({
            ...atLocalNoon(entry, ["startDate", "endDate"]),
            studyType: present([studyType, area]).join(", ") || undefined,
            gpa: score,
            location,
            summary: present(educationLines({ honors, activities })).join("\n\n") || undefined,
          }),
        ),
        certificates: items(exported.certificates).map((certificate) => atLocalNoon(certificate, ["date"])),
        interests: items(exported.interests).map(({ "x-description": summary, ...interest }) => ({
          ...interest,
          summary,
        })),
      };
    },
    page: (html, exported) => stackoverflowYears(html, exported),
    textLayout: {
      // An entry's title and its company, school or issuer: `<div>`s it shows inline, "at " between them.
      lineClasses: ["header-left"],
      // Its list items have a left margin for the bullet, and an entry (`div.item`) hides what
      // overflows it: a right-to-left item's bullet, outside it at the right, was not shown.
      bulletsOnTheLeft: true,
    },
    // In the light scheme its links' blue (#0095ff: the email, the phone, the site, each entry's
    // URL) was 3.11:1 on white and its orange section titles (#ff6d1f) 2.82:1; the count beside a
    // title, faded to 65 %, was 2.00:1 (4.00:1 in the dark scheme, whose colours are otherwise readable).
    readableColours:
      "@media not (prefers-color-scheme: dark) { :root { --color-link: #0074cc; --color-accent: #c2410c; } }" +
      " .section-title .item-count { opacity: 1; }",
  },
};

/** What `name`'s render function is given besides the document. */
export const themeRenderOptions = (name: ThemeName) => ADAPTERS[name].renderOptions;

/** What `name`'s CSS does to its text that its tags do not say. */
export const themeTextLayout = (name: ThemeName) => ADAPTERS[name].textLayout;

/** The CSS that makes `name`'s text readable on its backgrounds, as a `<style>` element ("" when none is needed). */
export function themeReadableColours(name: ThemeName): string {
  const css = ADAPTERS[name].readableColours;
  return css ? `<style>${css}</style>` : "";
}

/** The document `name` renders: our export in the keys that theme reads. */
export function themeDocument(name: ThemeName, exported: JsonResume): JsonResume {
  return ADAPTERS[name].document(exported);
}

/**
 * The rendered page with what the theme had no key for added (its text
 * escaped here), and the phone's link going where the files' does.
 */
export function completedThemePage(name: ThemeName, html: string, exported: JsonResume): string {
  const { page } = ADAPTERS[name];
  return telephoneLinks(page ? page(html, exported) : html, exported);
}

/**
 * What every theme is given alike. `meta` carries only the goals, which have
 * no place in themes; themes read their style settings (colors, fonts) from
 * it and write them into CSS unescaped. Themes show a job's `highlights` and
 * not the service's `x-responsibilities`, so a job's highlights are its
 * responsibilities followed by its accomplishments.
 */
function common({ meta: _goals, ...document }: JsonResume): JsonResume {
  const work = items(document.work).map(({ "x-responsibilities": responsibilities, highlights, ...job }) => ({
    ...job,
    highlights: [...strings(responsibilities), ...strings(highlights)],
  }));
  return { ...document, work };
}

/**
 * `basics` with the person's place as one line (profilePlace: the address,
 * city, region with postal code and country that are set) in the one key
 * `key`, which the theme prints without a separator of its own.
 */
function withLocation(basics: unknown, key: "city" | "region"): Item | undefined {
  if (typeof basics !== "object" || basics === null) return undefined;
  const { location, ...rest } = basics as Item;
  const parts = (location ?? {}) as Item;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  const place = profilePlace({
    location: text(parts.address),
    city: text(parts.city),
    region: text(parts.region),
    postal_code: text(parts.postalCode),
    country_code: text(parts.countryCode),
  });
  return place ? { ...rest, location: { [key]: place } } : rest;
}

/** A link as text: its address without the scheme, named by its network where the address does not say it. */
function profileText({ network, url }: Item): string | undefined {
  if (typeof url !== "string") return typeof network === "string" ? network : undefined;
  const address = url.replace(/^https?:\/\//i, "").replace(/\/$/, "");
  const named = typeof network !== "string" || address.toLowerCase().includes(network.toLowerCase());
  return named ? address : `${network}: ${address}`;
}

/** The lines of an education entry that no theme has a key for, in the order a reader expects them. */
function educationLines({ honors, activities }: Item): (string | undefined)[] {
  return [
    typeof honors === "string" ? `Honors: ${honors}` : undefined,
    typeof activities === "string" ? `Activities: ${activities}` : undefined,
  ];
}

/**
 * even's education entries with their place, GPA, honors and activities:
 * each entry's header (`<header>…<div class="meta">…</div></header>`, one
 * per entry, in order) gets one line of the meta per field.
 */
function evenPage(html: string, exported: JsonResume): string {
  const start = html.indexOf('<section id="education">');
  if (start === -1) return html;
  const end = html.indexOf("</section>", start);
  const entries = items(exported.education);
  let index = 0;
  const section = html.slice(start, end).replace(/<\/div>(\s*)<\/header>/g, (header, space: string) => {
    const entry = entries[index++] ?? {};
    // The place and GPA are one line; honors and activities are free text, their lines kept.
    const lines = [
      ...present([
        entry["x-location"],
        typeof entry.score === "string" ? `GPA ${entry.score}` : undefined,
      ]).map(escapeHtml),
      ...present(educationLines({ honors: entry["x-honors"], activities: entry["x-activities"] })).map(
        escapeHtmlLines,
      ),
    ];
    if (lines.length === 0) return header;
    return `${lines.map((line) => `<div>${line}</div>`).join("")}</div>${space}</header>`;
  });
  return html.slice(0, start) + section + html.slice(end);
}

/**
 * Both themes print every date with its month, a year alone (`"2018"`, how
 * the export writes the dates of an entry that reads as years) as `Jan 2018`.
 * even writes each date as `<time datetime="…">`, which holds the date as
 * given: one that is a year alone shows that year.
 */
function evenYears(html: string): string {
  return html.replace(/<time datetime="(\d{4})">[^<]*<\/time>/g, '<time datetime="$1">$1</time>');
}

/**
 * stackoverflow writes a section's items in order, each dated in the first
 * `<div class="date…">` after its `<section class="timeline-item…">`; the
 * dates of an item dated in years alone lose their month words there, and a
 * range within one year reads as that year (`2012`, not `2012 - 2012`).
 */
function stackoverflowYears(html: string, exported: JsonResume): string {
  let page = html;
  for (const mapping of SECTIONS) {
    const [id] = mapping.section;
    const start = page.indexOf(`<section id="${id}">`);
    if (mapping.section.length > 1 || start === -1) continue;
    const entries = items(exported[id!]);
    const [before, ...timelineItems] = page.slice(start).split('<section class="timeline-item');
    const dated = timelineItems.map((item, i) =>
      entries[i] && datedInYears(entries[i], mapping)
        ? item.replace(/<div class="date[^"]*">[\s\S]*?<\/div>/, (dates) =>
            dates
              .replace(/\p{L}+\.? (\d{4})/gu, "$1")
              .replace(
                /(<span class="startDate">(\d{4})<\/span>)\s*<span class="endDate">- \2<\/span>/,
                "$1",
              ),
          )
        : item,
    );
    page = page.slice(0, start) + [before, ...dated].join('<section class="timeline-item');
  }
  return page;
}

/**
 * Themes link the phone as it is written (stackoverflow `tel:+44 (0)20 …`)
 * or with its spaces taken out (even `tel:+44(0)2079460958`, `tel:askforit`,
 * `tel:+15551234567ext.89`): the link goes to the number a phone dials, as in
 * the files (telUrl of the phone as stored, not of the link, which has lost
 * the line break between two numbers), and a phone that is not one number
 * shows as text, not as a link to nothing. The phone is the only `tel:` link
 * a page can hold: every other link is an http(s) address.
 */
function telephoneLinks(html: string, exported: JsonResume): string {
  const phone = (exported.basics as Item | undefined)?.phone;
  const url = typeof phone === "string" ? telUrl(phone) : null;
  return html.replace(
    /<a([^>]*) href="tel:[^"]*"([^>]*)>([\s\S]*?)<\/a>/g,
    (_, before: string, after: string, text: string) =>
      url ? `<a${before} href="${url}"${after}>${text}</a>` : text,
  );
}

/**
 * `item` with its dates at noon of their day, in the server's time zone:
 * stackoverflow reads a date with `new Date` and prints it in that zone, so
 * `2018-09-01` (midnight UTC) printed "Aug 2018" on a server west of UTC. A
 * year alone is its first day (fullDate, as an import reads it).
 */
function atLocalNoon(item: Item, keys: string[]): Item {
  const dated = { ...item };
  for (const key of keys) {
    const date = fullDate(item[key]);
    if (typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date)) dated[key] = `${date}T12:00:00`;
  }
  return dated;
}

function items(value: unknown): Item[] {
  return Array.isArray(value) ? (value as Item[]) : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

/** The strings that are there: absent parts leave no empty tag or separator behind. */
function present(values: unknown[]): string[] {
  return values.filter((value): value is string => typeof value === "string" && value !== "");
}
