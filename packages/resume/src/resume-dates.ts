/**
 * How dates read on a resume, wherever it is shown: the Markdown resume, the
 * files, the themed pages' JSON Resume and the editor's entry lists say them
 * the same way.
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * How an entry's dates read: with their month (`Sep 2018`) or as years alone
 * (`2018`). The dates themselves are whole days either way; a JSON Resume
 * item dated `"2018"` is imported as its first day, read as a year.
 */
export const DATE_PRECISIONS = ["month", "year"] as const;
export type DatePrecision = (typeof DATE_PRECISIONS)[number];
export const DEFAULT_DATE_PRECISION = "month" satisfies DatePrecision;

/** `2020-01-15` as `Jan 2020`, or as `2020` for an entry whose dates read as years. */
export function resumeDate(date: string, precision: DatePrecision): string {
  const [year, month] = date.split("-");
  return precision === "year" ? year! : `${MONTHS[Number(month) - 1]} ${year}`;
}

/** `Jan 2020 – Present`, `Jan 2018 – Dec 2019`, `2018 – 2019`; `2018` for a range within one year read as years. */
export function dateRange(start: string, end: string | null, precision: DatePrecision): string {
  const [from, to] = [resumeDate(start, precision), end ? resumeDate(end, precision) : "Present"];
  return from === to && precision === "year" ? from : `${from} – ${to}`;
}
