/** Today in UTC, `YYYY-MM-DD`: the default `as_of` and `effective_date`. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);
