/**
 * How dates read on a resume, wherever it is shown: the Markdown resume and
 * the editor's entry lists say them the same way.
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `2020-01-15` as `Jan 2020`. */
export function monthYear(date: string): string {
  const [year, month] = date.split("-");
  return `${MONTHS[Number(month) - 1]} ${year}`;
}

/** `Jan 2020 – Present`, `Jan 2018 – Dec 2019`. */
export function dateRange(start: string, end: string | null): string {
  return `${monthYear(start)} – ${end ? monthYear(end) : "Present"}`;
}
