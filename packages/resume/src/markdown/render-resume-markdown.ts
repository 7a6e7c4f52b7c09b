import type { WholeResume } from "../schemas/whole-resume.ts";
import { profilePlace } from "../profile-place.ts";
import { dateRange, resumeDate } from "../resume-dates.ts";
import {
  escapeInline,
  escapeItemLines,
  escapeLineStart,
  escapeLines,
  escapeLinkText,
  escapeParagraphs,
  linkDestination,
} from "./escape-markdown.ts";
import { enumLabel } from "../enum-label.ts";
import { goalHeading } from "../goal-heading.ts";
import { printableText } from "../line-breaks.ts";
import { mapStrings } from "../map-strings.ts";

type Entries<Name extends keyof WholeResume> = NonNullable<WholeResume[Name]>;
type Entry<Name extends Exclude<keyof WholeResume, "profile">> = Entries<Name>[number];

/** Escaped user text, or null for none. */
const inline = (value: string | null) => (value ? escapeInline(value) : null);
const joinParts = (parts: (string | null | undefined)[]) => parts.filter(Boolean).join(" · ");
/** A link the resume makes on purpose, `text` shown as typed. */
const link = (text: string, url: string) => `[${escapeLinkText(text)}](${linkDestination(url)})`;

const SKILL_GROUPS: Record<Entry<"skills">["category"], string> = {
  language: "Languages",
  framework: "Frameworks",
  tool: "Tools",
  "soft-skill": "Soft skills",
};

/**
 * The resume as a conventional Markdown document: name and contact header,
 * then Summary, Experience, Education, Skills, Certifications, Hobbies and
 * Goals (the editor's order, as the PDF, Word and text files have them);
 * empty sections are left out. All user text is escaped.
 */
export function renderResumeMarkdown(stored: WholeResume): string {
  // Control characters go before the escaping, which reads each character's neighbours: left out
  // after it, U+0001 between a backslash and a bracket would leave the bracket unescaped.
  const resume = mapStrings(stored, printableText);
  const profile = resume.profile;
  const blocks: string[] = [];

  blocks.push(`# ${profile ? escapeInline(profile.name) : "Resume"}`);
  if (profile) {
    if (profile.headline) blocks.push(`**${escapeInline(profile.headline)}**`);
    const place = profilePlace(profile);
    // The email is a link, as in the files: as text, GFM renderers would link it, and others not.
    const email = profile.email && link(profile.email, `mailto:${profile.email}`);
    // The contact line's first part starts the line, so text there is escaped as a line start.
    const phone = profile.phone && (place || email ? escapeInline : escapeLineStart)(profile.phone);
    const contact = joinParts([
      place && escapeLineStart(place),
      email,
      phone,
      ...Object.entries(profile.links).map(([name, url]) => link(name, url)),
    ]);
    if (contact) blocks.push(contact);
    if (profile.summary) blocks.push(section("Summary", escapeParagraphs(profile.summary)));
  }

  if (resume.experience.length)
    blocks.push(section("Experience", resume.experience.map(experience).join("\n\n")));
  if (resume.education.length)
    blocks.push(section("Education", resume.education.map(education).join("\n\n")));
  if (resume.skills.length) blocks.push(section("Skills", skills(resume.skills)));
  if (resume.certifications.length) {
    blocks.push(section("Certifications", resume.certifications.map(certification).join("\n")));
  }
  if (resume.hobbies.length) blocks.push(section("Hobbies", resume.hobbies.map(hobby).join("\n")));
  const goalsSummary = profile?.goals_summary ? escapeParagraphs(profile.goals_summary) : null;
  if (resume.goals.length || goalsSummary) {
    blocks.push(
      section("Goals", [goalsSummary, resume.goals.map(goal).join("\n")].filter(Boolean).join("\n\n")),
    );
  }

  return `${blocks.join("\n\n")}\n`;
}

function section(title: string, body: string): string {
  return `## ${title}\n\n${body}`;
}

/** A list item's text starts a block of its own ("- 1. x" would nest a list); its lines are kept. */
function bullets(items: string[]): string[] {
  return items.map((item) => `- ${escapeItemLines(item)}`);
}

function experience(entry: Entry<"experience">): string {
  const heading = `### ${escapeInline(entry.title)} — ${escapeInline(entry.organization)}`;
  const details = joinParts([
    dateRange(entry.start_date, entry.end_date, entry.date_precision),
    inline(entry.location),
    entry.employment_type === "full-time" ? null : enumLabel(entry.employment_type),
  ]);
  const items = [...bullets(entry.responsibilities), ...bullets(entry.accomplishments)];
  return [heading, `*${details}*`, items.length ? `\n${items.join("\n")}` : null].filter(Boolean).join("\n");
}

function education(entry: Entry<"education">): string {
  const degree = joinParts([inline(entry.degree), inline(entry.field_of_study)]);
  const heading = `### ${degree} — ${escapeInline(entry.institution)}`;
  const details = joinParts([
    dateRange(entry.start_date, entry.end_date, entry.date_precision),
    inline(entry.location),
    entry.gpa && `GPA ${escapeInline(entry.gpa)}`,
  ]);
  const more = [
    entry.honors && `Honors: ${escapeItemLines(entry.honors, escapeInline)}`,
    entry.activities && `Activities: ${escapeItemLines(entry.activities, escapeInline)}`,
  ]
    .filter(Boolean)
    .map((line) => `- ${line}`);
  return [heading, `*${details}*`, more.length ? `\n${more.join("\n")}` : null].filter(Boolean).join("\n");
}

function skills(entries: Entries<"skills">): string {
  return Object.entries(SKILL_GROUPS)
    .map(([category, label]) => {
      const names = entries
        .filter((s) => s.category === category)
        .map((s) => {
          const years = s.years_experience === null ? "" : `, ${s.years_experience} yrs`;
          const keywords = s.keywords.length ? `: ${s.keywords.map(escapeInline).join(", ")}` : "";
          return `${escapeInline(s.name)} (${s.proficiency}${years}${keywords})`;
        });
      return names.length ? `- **${label}:** ${names.join(", ")}` : null;
    })
    .filter(Boolean)
    .join("\n");
}

function certification(entry: Entry<"certifications">): string {
  const validity = entry.expiration_date
    ? dateRange(entry.issue_date, entry.expiration_date, entry.date_precision)
    : `issued ${resumeDate(entry.issue_date, entry.date_precision)}`;
  return `- ${joinParts([
    `**${escapeInline(entry.name)}** — ${escapeInline(entry.issuing_organization)}`,
    validity,
    entry.credential_id && `ID ${escapeInline(entry.credential_id)}`,
    entry.credential_url && link("verify", entry.credential_url),
  ])}`;
}

function goal(entry: Entry<"goals">): string {
  const target = entry.target_date ? `by ${resumeDate(entry.target_date, entry.date_precision)}` : null;
  const { heading, text } = goalHeading(entry.description);
  const item = `- ${escapeLineStart(heading)} (${joinParts([entry.category, target, entry.status])})`;
  // The description's other lines go on in the list item, each after a hard break, indented as its text.
  return text ? `${item}  \n${escapeLines(text).replace(/^/gm, "  ")}` : item;
}

function hobby(entry: Entry<"hobbies">): string {
  const description = entry.description ? ` — ${escapeItemLines(entry.description, escapeInline)}` : "";
  return `- **${escapeInline(entry.name)}**${description}`;
}
