"use client";
import type { Ref } from "react";

/**
 * A resume page in a JSON Resume theme, in a frame of its own so that the
 * theme's styles stay in it. The frame runs no script (sandbox without
 * allow-scripts); it shares the editor's origin so that the editor can print
 * it, and may open the print dialog (allow-modals).
 */
export function ThemePreview({
  theme,
  html,
  ref,
}: {
  theme: string;
  html: string;
  ref: Ref<HTMLIFrameElement>;
}) {
  return (
    <iframe
      ref={ref}
      className="preview preview-frame"
      title={`Resume preview in the ${theme} theme`}
      data-testid="theme-preview"
      sandbox="allow-same-origin allow-modals"
      srcDoc={html}
    />
  );
}
