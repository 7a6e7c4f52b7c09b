/**
 * A day of the API's timestamps (UTC) as the person's own calendar has it, in
 * the browser's time zone and language ("Mar 9, 2026"): the UTC day is
 * tomorrow's for a link made on an evening in the Americas.
 */
export const localDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
