/**
 * Members given more than once in one object of a JSON body
 * (`{"amount": 1, "amount": 100}`). `JSON.parse` keeps the last one without a
 * word: the value before it is lost, and a reader of the same text that keeps
 * the first (a proxy, an audit log, another language's parser) sees another
 * request than the one served.
 */

import type { DocumentPath } from "./document-path.ts";
import { FINDINGS_WITH_PATHS, walkJsonText } from "./json-text-walk.ts";

const STRINGS = /"(?:[^"\\]|\\.)*"/g;

/**
 * Where each member given more than once in an object of `text` (valid JSON,
 * parsed as `parsed`) is, once, at its second mention; past the first
 * FINDINGS_WITH_PATHS, counted without a path. A body with none, as good as
 * every body, is not walked: a colon follows each name written, so with no
 * colon inside a string its colons are as many as the names, and with none
 * repeated as many as the parsed objects' keys.
 */
export function repeatedMembers(text: string, parsed: unknown): { path: DocumentPath }[] {
  const keys = keysOf(parsed);
  // The colons in the whole text, strings and all, are never fewer than the keys: equal, neither.
  if (colonsIn(text) === keys || colonsIn(text.replace(STRINGS, "")) === keys) return [];
  const repeated: { path: DocumentPath }[] = [];
  walkJsonText(text, {
    object(path, names) {
      // Each name once, at its second mention, however many times it is given.
      const times = new Map<string, number>();
      for (const name of names) {
        times.set(name, (times.get(name) ?? 0) + 1);
        if (times.get(name) !== 2) continue;
        repeated.push({ path: repeated.length < FINDINGS_WITH_PATHS ? [...path, name] : [] });
      }
    },
  });
  return repeated;
}

function colonsIn(text: string): number {
  let colons = 0;
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) colons++;
  return colons;
}

/** How many keys the objects in `value` have in all; with a stack of its own, not by recursion. */
function keysOf(value: unknown): number {
  let keys = 0;
  const pending = typeof value === "object" && value !== null ? [value] : [];
  while (pending.length > 0) {
    const next = pending.pop();
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === "object" && item !== null) pending.push(item);
      continue;
    }
    // for...in counts without the array Object.keys makes: JSON.parse's objects inherit nothing enumerable.
    for (const key in next as Record<string, unknown>) {
      keys++;
      const inner = (next as Record<string, unknown>)[key];
      if (typeof inner === "object" && inner !== null) pending.push(inner);
    }
  }
  return keys;
}
