"use client";
import DOMPurify from "dompurify";
import { marked } from "marked";
import { useEffect, useState } from "react";

/**
 * The blocks of text that each take the direction of their own first letter, as on the themed
 * pages. Not a list's items: `dir` would move a right-to-left item's bullet to the other side,
 * out of the list's indent; their text is ordered by CSS instead (globals.css, `.preview li`).
 */
const TEXT_BLOCKS = "p, h1, h2, h3, h4, h5, h6, blockquote, td, th";
/** The preview sits under the editor's Preview heading (an h2): the resume's name is a level 3. */
const LEVELS_BELOW_PREVIEW = 2;

/**
 * The Markdown as the preview shows it: rendered with marked and sanitized
 * with DOMPurify; each block of text `dir="auto"`, so that Hebrew or Arabic
 * reads right to left (its phrases in order); its headings one level under
 * the editor's own (aria-level), so that the preview's "Experience" is not
 * a second heading of the editor's rank and name.
 */
function previewHtml(markdown: string): string {
  const fragment = DOMPurify.sanitize(marked.parse(markdown, { async: false }), {
    RETURN_DOM_FRAGMENT: true,
  });
  for (const block of fragment.querySelectorAll(TEXT_BLOCKS)) {
    block.setAttribute("dir", "auto");
    const level = /^H([1-6])$/.exec(block.tagName)?.[1];
    if (level) block.setAttribute("aria-level", String(Math.min(6, Number(level) + LEVELS_BELOW_PREVIEW)));
  }
  const holder = document.createElement("div");
  holder.append(fragment);
  return holder.innerHTML;
}

/**
 * The Markdown resume rendered in the browser only: DOMPurify needs a DOM
 * to sanitize against.
 */
export function ResumePreview({ markdown }: { markdown: string }) {
  const [html, setHtml] = useState("");
  useEffect(() => {
    setHtml(previewHtml(markdown));
  }, [markdown]);
  return (
    <article
      className="preview"
      aria-label="Resume preview"
      data-testid="preview"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
