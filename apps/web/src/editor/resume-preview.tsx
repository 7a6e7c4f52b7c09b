"use client";
import DOMPurify from "dompurify";
import { marked } from "marked";
import { useEffect, useState } from "react";

/**
 * The Markdown resume rendered with marked and sanitized with DOMPurify. It
 * renders in the browser only: DOMPurify needs a DOM to sanitize against.
 */
export function ResumePreview({ markdown }: { markdown: string }) {
  const [html, setHtml] = useState("");
  useEffect(() => {
    setHtml(DOMPurify.sanitize(marked.parse(markdown, { async: false })));
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
