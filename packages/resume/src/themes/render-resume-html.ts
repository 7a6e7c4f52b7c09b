import { resumeLanguage } from "../resume-language.ts";
import type { WholeResume } from "../schemas/whole-resume.ts";
import { toJsonResume, type JsonResume } from "../json-resume/to-json-resume.ts";
import { offlinePage } from "./offline-page.ts";
import {
  completedThemePage,
  themeDocument,
  themeReadableColours,
  themeRenderOptions,
  themeTextLayout,
} from "./theme-documents.ts";
import { renderWithTextEscaped } from "./theme-text-escaping.ts";
import { withTextDirections } from "./text-directions.ts";
import { THEMES, type ThemeName } from "./theme-names.ts";

/** What a theme sends with its page: nothing may load, nothing may run. */
export const THEMED_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

/**
 * A word longer than the line (a URL, a hash) wraps instead of widening the
 * page past a phone's screen: neither theme says so, and a 160-character word
 * made an `even` page 2,230 px wide on a 375 px screen. After the theme's own
 * CSS (offlinePage gathers it last), so that it holds over it.
 */
const LONG_WORDS_WRAP = "<style>body { overflow-wrap: anywhere; }</style>";

interface Theme {
  render(resume: JsonResume, options?: Record<string, unknown>): string | Promise<string>;
}

const loaded = new Map<ThemeName, Promise<Theme>>();

/** A theme's module, loaded on first use (some are ES modules, some CommonJS). */
function themeOf(name: ThemeName): Promise<Theme> {
  let theme = loaded.get(name);
  if (!theme) {
    const specifier: string = THEMES[name];
    theme = import(/* webpackIgnore: true */ specifier).then(
      (module: Partial<Theme> & { default?: Partial<Theme> }) => {
        const render = module.render ?? module.default?.render;
        if (!render) throw new Error(`${specifier} has no render function`);
        return { render };
      },
    );
    // A module that failed to load is tried again by the next request, not kept failed.
    theme.catch(() => loaded.delete(name));
    loaded.set(name, theme);
  }
  return theme;
}

/**
 * The resume as a complete HTML page in a JSON Resume theme, every field the
 * theme can show in the keys it reads (theme-documents.ts), its text shown
 * as text (theme-text-escaping.ts), self-contained and inert
 * (offline-page.ts), each of its text blocks in the direction of its own text
 * (text-directions.ts), in the resume's language where it is known.
 */
export async function renderResumeHtml(resume: WholeResume, name: ThemeName): Promise<string> {
  const exported = toJsonResume(resume);
  const theme = await themeOf(name);
  const render = (document: JsonResume) => theme.render(document, themeRenderOptions(name));
  const html = await renderWithTextEscaped(name, render, themeDocument(name, exported));
  const page = offlinePage(
    completedThemePage(name, html, exported) + LONG_WORDS_WRAP + themeReadableColours(name),
  );
  return inLanguage(withTextDirections(page, themeTextLayout(name)), resumeLanguage(resume));
}

/**
 * The page with `<html lang>` saying `language` (a canonical BCP 47 tag: letters, digits and
 * hyphens), in place of the theme's English; as it was when the language is not known.
 * Browsers choose the Han characters' forms by it (Japanese or Chinese), screen readers
 * their voice.
 */
function inLanguage(page: string, language: string | null): string {
  if (language === null) return page;
  return page.replace(
    /<html\b([^>]*)>/i,
    (_tag, attributes: string) => `<html${attributes.replace(/\s+lang="[^"]*"/i, "")} lang="${language}">`,
  );
}
