/**
 * What each row's Edit and Delete buttons are called after: its title, and
 * where another row has the same title (a job held twice at one company, two
 * versions both named "Backend"), its line of details too, and where even
 * that repeats, its place among the rows alike ("2 of 3"). A screen reader's
 * list of buttons then tells every row apart.
 */
export function distinctNames(rows: readonly { title: string; meta: string }[]): string[] {
  const count = (names: string[], name: string) => names.filter((n) => n === name).length;
  const titles = rows.map((row) => row.title);
  const detailed = rows.map((row, i) =>
    count(titles, row.title) > 1 && row.meta !== "" ? `${row.title}, ${row.meta}` : titles[i]!,
  );
  return detailed.map((name, i) => {
    const alike = count(detailed, name);
    return alike > 1 ? `${name} (${count(detailed.slice(0, i), name) + 1} of ${alike})` : name;
  });
}
