/** The installed JSON Resume themes, by the name `?theme=` takes (the package name without `jsonresume-theme-`). */
export const THEMES = {
  even: "jsonresume-theme-even",
  stackoverflow: "jsonresume-theme-stackoverflow",
} as const;
export type ThemeName = keyof typeof THEMES;
export const THEME_NAMES = Object.keys(THEMES) as [ThemeName, ...ThemeName[]];
