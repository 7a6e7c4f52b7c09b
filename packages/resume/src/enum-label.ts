/**
 * An enum value as the resume's readers see it ("full-time" as "Full-time",
 * "soft-skill" as "Soft-skill"): the Markdown, the files and the editor alike.
 */
export const enumLabel = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
