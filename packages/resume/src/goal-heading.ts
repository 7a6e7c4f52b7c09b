import { LINE_BREAK } from "./line-breaks.ts";

/**
 * A goal's description as the resume shows it wherever a goal is an entry
 * (the Markdown, the files): its first line is the entry's heading, and the
 * lines after it (null when there are none) follow as the entry's text. A
 * heading is one line in every document, and so the lines typed in a
 * description are kept without a heading of several lines.
 */
export function goalHeading(description: string): { heading: string; text: string | null } {
  const [heading = "", ...rest] = description.trim().split(LINE_BREAK);
  // Blank lines between the heading and the text would open the text with a gap.
  while (rest[0]?.trim() === "") rest.shift();
  return { heading: heading.trim(), text: rest.length ? rest.join("\n") : null };
}
