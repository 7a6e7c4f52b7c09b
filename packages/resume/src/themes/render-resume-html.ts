import type { WholeResume } from "../schemas/whole-resume.ts";
import { toJsonResume, type JsonResume } from "../json-resume/to-json-resume.ts";
import { offlinePage } from "./offline-page.ts";
import { renderWithTextEscaped } from "./theme-text-escaping.ts";
import { THEMES, type ThemeName } from "./theme-names.ts";

/** What a theme sends with its page: nothing may load, nothing may run. */
export const THEMED_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

interface Theme {
  render(resume: JsonResume): string | Promise<string>;
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
 * The resume as a complete HTML page in a JSON Resume theme, its text shown
 * as text (theme-text-escaping.ts), self-contained and inert
 * (offline-page.ts). Themes show a job's `highlights` and not the service's
 * `x-responsibilities`, so on this page a job's highlights are its
 * responsibilities followed by its accomplishments.
 */
export async function renderResumeHtml(resume: WholeResume, name: ThemeName): Promise<string> {
  // `meta` carries only the goals, which have no place in themes; themes read their
  // style settings (colors, fonts) from it and write them into CSS unescaped.
  const { meta: _goals, ...document } = toJsonResume(resume);
  const work = (document.work as Record<string, unknown>[]).map(
    ({ "x-responsibilities": responsibilities, highlights, ...job }) => ({
      ...job,
      highlights: [...(responsibilities as string[]), ...(highlights as string[])],
    }),
  );
  const theme = await themeOf(name);
  return offlinePage(await renderWithTextEscaped(name, theme.render, { ...document, work }));
}
