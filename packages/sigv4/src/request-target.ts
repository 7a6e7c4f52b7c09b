/** A request target's path and query: the query is all after the first "?", more "?" included. */
export function splitTarget(target: string): [string, string] {
  const question = target.indexOf("?");
  return question < 0 ? [target, ""] : [target.slice(0, question), target.slice(question + 1)];
}

/**
 * A request path as AWS's signers normalise it for every service but S3:
 * no empty or `.` segments, `..` removing the one before, the leading and
 * trailing slash kept (`//a/./b/../c/` is `/a/c/`).
 */
export function normalizeSigV4Path(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}${segments.length > 0 && path.endsWith("/") ? "/" : ""}`;
}
