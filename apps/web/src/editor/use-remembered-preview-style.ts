"use client";
import { useCallback, useEffect, useState } from "react";
import { THEME_NAMES, type ThemeName } from "@app/resume/client";

/** What the preview shows the resume as: the Markdown, or the page of a theme. */
export type PreviewStyle = "markdown" | ThemeName;

function isPreviewStyle(value: string | null): value is PreviewStyle {
  return value === "markdown" || THEME_NAMES.some((name) => name === value);
}

/**
 * The preview's style, kept in localStorage per person (the key holds the
 * user id), so that a reload, or the next visit, shows the style chosen last.
 * A stored value this editor does not know (a theme since removed, a hand
 * edit) gives Markdown.
 */
export function useRememberedPreviewStyle(userId: string): [PreviewStyle, (style: PreviewStyle) => void] {
  const key = `editor:preview-style:${userId}`;
  const [style, setStyle] = useState<PreviewStyle>("markdown");

  // Read after the first render, not during it: the server renders Markdown, and the first render must match it.
  useEffect(() => {
    const stored = readStorage(key);
    setStyle(isPreviewStyle(stored) ? stored : "markdown");
  }, [key]);

  const choose = useCallback(
    (next: PreviewStyle) => {
      setStyle(next);
      writeStorage(key, next);
    },
    [key],
  );
  return [style, choose];
}

// Storage may be refused (a browser's privacy mode, a full quota): the style is then only not remembered.
function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not remembered, still shown.
  }
}
