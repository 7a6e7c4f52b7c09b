/**
 * The row the focus goes to when `removed` leaves `rows`: the next one, else
 * the one before (none: the caller's fallback, its section's create control),
 * so that a keyboard user goes on from where the removed row's button was.
 */
export function neighbourOf<T extends { id: string }>(
  rows: readonly T[] | null,
  removed: string,
): T | undefined {
  const index = rows?.findIndex((row) => row.id === removed) ?? -1;
  return index < 0 ? undefined : (rows![index + 1] ?? rows![index - 1]);
}

/**
 * After `removed` left `rows`: the focus to its neighbour's button, the one
 * marked `attribute="<id>"` in `list`, else to `fallback`.
 */
export function focusNeighbourOf<T extends { id: string }>(
  rows: readonly T[] | null,
  removed: string,
  {
    list,
    attribute,
    fallback,
  }: { list: HTMLElement | null; attribute: string; fallback: HTMLElement | null },
): void {
  const next = neighbourOf(rows, removed);
  (next ? list?.querySelector<HTMLElement>(`[${attribute}="${next.id}"]`) : fallback)?.focus();
}
