import { profilePlace, telUrl } from "../profile-place.ts";
import { dateRange, resumeDate } from "../resume-dates.ts";
import type { WholeResume } from "../schemas/whole-resume.ts";
import { enumLabel } from "../enum-label.ts";
import { goalHeading } from "../goal-heading.ts";
import { printableText } from "../line-breaks.ts";
import { mapStrings } from "../map-strings.ts";
import { resumeLanguage } from "../resume-language.ts";

/**
 * The resume as the documents people send lay it out (PDF, Word, plain text):
 * one outline, so that every file holds the same text in the same order.
 * Plain text only: each renderer escapes or styles it as its format needs.
 */
export interface ResumeOutline {
  /** The person's name, or "Resume" before the profile exists. */
  name: string;
  headline: string | null;
  /** Location, email, phone and the profile's links, in that order. */
  contact: OutlineText[];
  sections: OutlineSection[];
  /** The language the resume is written in (resumeLanguage), null when not known: the files say English. */
  language: string | null;
}

/**
 * Text, and where it leads when it is a link. A link's text shows its address
 * (without the scheme), so that plain text and a printed page keep it.
 */
export interface OutlineText {
  text: string;
  url?: string;
}

export interface OutlineSection {
  title: string;
  /** Free text before the entries (the summary, the goals' summary). */
  paragraphs: string[];
  entries: OutlineEntry[];
}

export interface OutlineEntry {
  /** "Senior Engineer — Acme". */
  heading: string;
  /** "Jan 2020 – Present", placed on the heading's line (right-aligned where the format can). */
  dates: string | null;
  /** Location, employment type, GPA, credential id, as one line. */
  details: string[];
  /** A description (a hobby's, a skill group's names, a goal's lines after its first). */
  text: string | null;
  bullets: string[];
  link: OutlineText | null;
}

type Entry<Name extends Exclude<keyof WholeResume, "profile">> = WholeResume[Name][number];

const SKILL_GROUPS: Record<Entry<"skills">["category"], string> = {
  language: "Languages",
  framework: "Frameworks",
  tool: "Tools",
  "soft-skill": "Soft skills",
};

/** The values that are text, in order (for lines put together from optional parts). */
export const present = (values: (string | null | undefined | false)[]): string[] =>
  values.filter((value): value is string => Boolean(value));

function entry(fields: Partial<OutlineEntry> & { heading: string }): OutlineEntry {
  return { dates: null, details: [], text: null, bullets: [], link: null, ...fields };
}

/**
 * Sections in the editor's order (Summary first), empty ones left out; entries
 * in each collection's own order (experience and education newest first).
 */
export function resumeOutline(
  resume: WholeResume,
  language: string | null = resumeLanguage(resume),
): ResumeOutline {
  const { profile } = resume;
  const sections: OutlineSection[] = [];
  const add = (title: string, entries: OutlineEntry[], paragraphs: string[] = []) => {
    if (entries.length || paragraphs.length) sections.push({ title, paragraphs, entries });
  };

  add("Summary", [], present([profile?.summary]));
  add("Experience", resume.experience.map(experience));
  add("Education", resume.education.map(education));
  add("Skills", skillGroups(resume.skills));
  add("Certifications", resume.certifications.map(certification));
  add(
    "Hobbies",
    resume.hobbies.map((h) => entry({ heading: h.name, text: h.description })),
  );
  add("Goals", resume.goals.map(goal), present([profile?.goals_summary]));

  const outline = printableOutline({
    name: profile?.name ?? "Resume",
    headline: profile?.headline ?? null,
    contact: profile
      ? [
          ...present([profilePlace(profile)]).map((text) => ({ text })),
          ...(profile.email ? [{ text: profile.email, url: `mailto:${profile.email}` }] : []),
          ...(profile.phone ? [phoneLink(profile.phone)] : []),
          ...Object.entries(profile.links).map(([name, url]) => ({ text: `${name}: ${shortUrl(url)}`, url })),
        ]
      : [],
    sections,
    language,
  });
  return withOneLineFields(outline);
}

/** The phone as typed, a link to the number a phone dials when it reads as one (telUrl). */
function phoneLink(phone: string): OutlineText {
  const url = telUrl(phone);
  return url ? { text: phone, url } : { text: phone };
}

/** A one-line field's text, its line breaks (and the spaces around them) one space. */
const oneLine = (text: string) => text.replace(/\s*[\n\r\u2028\u2029]\s*/g, " ");

/**
 * Names, titles, places, dates and details are one line in every document,
 * whatever was sent: a line break in one prints as a space (only free text,
 * the summaries, descriptions and bullets, keeps its lines; a goal's
 * description is a heading and text, goalHeading).
 */
function withOneLineFields(outline: ResumeOutline): ResumeOutline {
  return {
    ...outline,
    name: oneLine(outline.name),
    headline: outline.headline && oneLine(outline.headline),
    contact: outline.contact.map((item) => ({ ...item, text: oneLine(item.text) })),
    sections: outline.sections.map((section) => ({
      ...section,
      entries: section.entries.map((entry) => ({
        ...entry,
        heading: oneLine(entry.heading),
        dates: entry.dates && oneLine(entry.dates),
        details: entry.details.map(oneLine),
        link: entry.link && { ...entry.link, text: oneLine(entry.link.text) },
      })),
    })),
  };
}

/**
 * Every text without its unprintable characters (withoutUnprintable). A carriage
 * return, alone or before a line feed (a form's textarea sends CRLF), is a line
 * break, and so are Unicode's line and paragraph separators (U+2028, U+2029),
 * which the PDF's layout broke lines at and plain text's wrapping read as spaces.
 */
const printableOutline = <T>(outline: T): T => mapStrings(outline, printableText);

/** `https://github.com/zoe/` as `github.com/zoe`: what a reader types, still a link in the file. */
function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//i, "").replace(/\/$/, "");
}

function experience(job: Entry<"experience">): OutlineEntry {
  return entry({
    heading: `${job.title} — ${job.organization}`,
    dates: dateRange(job.start_date, job.end_date, job.date_precision),
    details: present([
      job.location,
      job.employment_type === "full-time" ? null : enumLabel(job.employment_type),
    ]),
    bullets: [...job.responsibilities, ...job.accomplishments],
  });
}

function education(school: Entry<"education">): OutlineEntry {
  return entry({
    heading: `${present([school.degree, school.field_of_study]).join(", ")} — ${school.institution}`,
    dates: dateRange(school.start_date, school.end_date, school.date_precision),
    details: present([school.location, school.gpa && `GPA ${school.gpa}`]),
    bullets: present([
      school.honors && `Honors: ${school.honors}`,
      school.activities && `Activities: ${school.activities}`,
    ]),
  });
}

function skillGroups(skills: Entry<"skills">[]): OutlineEntry[] {
  return Object.entries(SKILL_GROUPS).flatMap(([category, label]) => {
    const names = skills
      .filter((skill) => skill.category === category)
      .map((skill) => {
        const years = skill.years_experience === null ? "" : `, ${skill.years_experience} yrs`;
        const keywords = skill.keywords.length ? `: ${skill.keywords.map(oneLine).join(", ")}` : "";
        // The group's names are its entry's text, which keeps its lines: each name is made one line here.
        return `${oneLine(skill.name)} (${skill.proficiency}${years}${keywords})`;
      });
    return names.length ? [entry({ heading: label, text: names.join(", ") })] : [];
  });
}

function certification(cert: Entry<"certifications">): OutlineEntry {
  return entry({
    heading: `${cert.name} — ${cert.issuing_organization}`,
    dates: cert.expiration_date
      ? dateRange(cert.issue_date, cert.expiration_date, cert.date_precision)
      : `Issued ${resumeDate(cert.issue_date, cert.date_precision)}`,
    details: present([cert.credential_id && `Credential ID ${cert.credential_id}`]),
    link: cert.credential_url
      ? { text: `Verify: ${shortUrl(cert.credential_url)}`, url: cert.credential_url }
      : null,
  });
}

function goal(target: Entry<"goals">): OutlineEntry {
  return entry({
    ...goalHeading(target.description),
    dates: target.target_date ? `By ${resumeDate(target.target_date, target.date_precision)}` : null,
    details: [enumLabel(target.category), enumLabel(target.status)],
  });
}

/** Every text of the outline, in reading order. */
export function* outlineTexts(outline: ResumeOutline): Generator<string> {
  yield outline.name;
  if (outline.headline) yield outline.headline;
  for (const item of outline.contact) yield item.text;
  for (const section of outline.sections) {
    yield section.title;
    yield* section.paragraphs;
    for (const entry of section.entries) {
      yield entry.heading;
      if (entry.dates) yield entry.dates;
      yield* entry.details;
      if (entry.text) yield entry.text;
      if (entry.link) yield entry.link.text;
      yield* entry.bullets;
    }
  }
}
