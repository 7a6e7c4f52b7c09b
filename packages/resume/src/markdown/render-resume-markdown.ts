import type { WholeResume } from "../store/resume-store.ts";
import { escapeInline, escapeParagraphs, linkDestination } from "./escape-markdown.ts";

type Row = Record<string, unknown>;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `2020-01-15` as `Jan 2020`. */
export function monthYear(date: string): string {
  const [year, month] = date.split("-");
  return `${MONTHS[Number(month) - 1]} ${year}`;
}

/** `Jan 2020 – Present`, `Jan 2018 – Dec 2019`. */
export function dateRange(start: string, end: string | null, open = "Present"): string {
  return `${monthYear(start)} – ${end ? monthYear(end) : open}`;
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
const joinParts = (parts: (string | null | undefined)[]) => parts.filter(Boolean).join(" · ");
const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

const SKILL_GROUPS: Record<string, string> = {
  language: "Languages",
  framework: "Frameworks",
  tool: "Tools",
  "soft-skill": "Soft skills",
};

/**
 * The resume as a conventional Markdown document: name and contact header,
 * then Summary, Experience, Education, Skills, Certifications, Goals and
 * Hobbies; empty sections are left out. All user text is escaped.
 */
export function renderResumeMarkdown(resume: WholeResume): string {
  const profile = resume.profile;
  const blocks: string[] = [];

  blocks.push(`# ${profile ? escapeInline(String(profile.name)) : "Resume"}`);
  if (profile) {
    if (text(profile.headline)) blocks.push(`**${escapeInline(String(profile.headline))}**`);
    const links = Object.entries((profile.links ?? {}) as Record<string, string>).map(
      ([name, url]) => `[${escapeInline(name)}](${linkDestination(url)})`,
    );
    const contact = joinParts([
      text(profile.location) && escapeInline(String(profile.location)),
      text(profile.email) && escapeInline(String(profile.email)),
      ...links,
    ]);
    if (contact) blocks.push(contact);
    if (text(profile.summary)) blocks.push(section("Summary", escapeParagraphs(String(profile.summary))));
  }

  if (resume.experience.length)
    blocks.push(section("Experience", resume.experience.map(experience).join("\n\n")));
  if (resume.education.length)
    blocks.push(section("Education", resume.education.map(education).join("\n\n")));
  if (resume.skills.length) blocks.push(section("Skills", skills(resume.skills)));
  if (resume.certifications.length) {
    blocks.push(section("Certifications", resume.certifications.map(certification).join("\n")));
  }
  const goalsSummary =
    profile && text(profile.goals_summary) ? escapeParagraphs(String(profile.goals_summary)) : null;
  if (resume.goals.length || goalsSummary) {
    blocks.push(
      section("Goals", [goalsSummary, resume.goals.map(goal).join("\n")].filter(Boolean).join("\n\n")),
    );
  }
  if (resume.hobbies.length) blocks.push(section("Hobbies", resume.hobbies.map(hobby).join("\n")));

  return `${blocks.join("\n\n")}\n`;
}

function section(title: string, body: string): string {
  return `## ${title}\n\n${body}`;
}

function bullets(items: unknown): string[] {
  return ((items ?? []) as string[]).map((item) => `- ${escapeInline(item)}`);
}

function experience(entry: Row): string {
  const heading = `### ${escapeInline(String(entry.title))} — ${escapeInline(String(entry.organization))}`;
  const details = joinParts([
    dateRange(String(entry.start_date), text(entry.end_date)),
    text(entry.location) && escapeInline(String(entry.location)),
    entry.employment_type === "full-time" ? null : capitalize(String(entry.employment_type)),
  ]);
  const items = [...bullets(entry.responsibilities), ...bullets(entry.accomplishments)];
  return [heading, `*${details}*`, items.length ? `\n${items.join("\n")}` : null].filter(Boolean).join("\n");
}

function education(entry: Row): string {
  const degree = joinParts(
    [String(entry.degree), text(entry.field_of_study)].map((v) => v && escapeInline(v)),
  );
  const heading = `### ${degree} — ${escapeInline(String(entry.institution))}`;
  const details = joinParts([
    dateRange(String(entry.start_date), text(entry.end_date)),
    text(entry.location) && escapeInline(String(entry.location)),
    text(entry.gpa) && `GPA ${escapeInline(String(entry.gpa))}`,
  ]);
  const more = [
    text(entry.honors) && `Honors: ${escapeInline(String(entry.honors))}`,
    text(entry.activities) && `Activities: ${escapeInline(String(entry.activities))}`,
  ]
    .filter(Boolean)
    .map((line) => `- ${line}`);
  return [heading, `*${details}*`, more.length ? `\n${more.join("\n")}` : null].filter(Boolean).join("\n");
}

function skills(entries: Row[]): string {
  return Object.entries(SKILL_GROUPS)
    .map(([category, label]) => {
      const names = entries
        .filter((s) => s.category === category)
        .map((s) => {
          const years = typeof s.years_experience === "number" ? `, ${s.years_experience} yrs` : "";
          return `${escapeInline(String(s.name))} (${s.proficiency}${years})`;
        });
      return names.length ? `- **${label}:** ${names.join(", ")}` : null;
    })
    .filter(Boolean)
    .join("\n");
}

function certification(entry: Row): string {
  const validity = text(entry.expiration_date)
    ? dateRange(String(entry.issue_date), String(entry.expiration_date))
    : `issued ${monthYear(String(entry.issue_date))}`;
  return `- ${joinParts([
    `**${escapeInline(String(entry.name))}** — ${escapeInline(String(entry.issuing_organization))}`,
    validity,
    text(entry.credential_id) && `ID ${escapeInline(String(entry.credential_id))}`,
    text(entry.credential_url) && `[verify](${linkDestination(String(entry.credential_url))})`,
  ])}`;
}

function goal(entry: Row): string {
  const target = text(entry.target_date) ? `by ${monthYear(String(entry.target_date))}` : null;
  return `- ${escapeInline(String(entry.description))} (${joinParts([String(entry.category), target, String(entry.status)])})`;
}

function hobby(entry: Row): string {
  const description = text(entry.description) ? ` — ${escapeInline(String(entry.description))}` : "";
  return `- **${escapeInline(String(entry.name))}**${description}`;
}
