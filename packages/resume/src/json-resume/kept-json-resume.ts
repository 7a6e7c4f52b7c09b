/**
 * A JSON Resume import loses nothing: what the data model has no field for
 * (a picture, a volunteer section, a work item's `url`, `meta`, keys of
 * the document's own) is kept verbatim with the resume, and export writes it
 * back (docs/resume-api.md, "JSON Resume export and import"). Each entry keeps
 * its item as the document had it and its place in the document's list; the
 * rest of the document is kept once per person.
 *
 * Export starts from what was kept and writes over it only the fields that
 * changed since: a field whose value is still what the import read from the
 * item keeps the item's own spelling (`"2014"` rather than `"2014-01-01"`,
 * `"Master"` rather than `"expert"`, no `x-employmentType` where the document
 * had none). So exporting an unchanged import gives the document back.
 */
import type { DocumentPath } from "@app/rest/paths";
import { COLLECTIONS, type CollectionName } from "../collections.ts";
import { profileInput } from "../schemas/profile.ts";
import type { WholeResume } from "../schemas/whole-resume.ts";
import { fromJsonResume } from "./from-json-resume.ts";
import {
  DATE_FIELDS,
  datedInYears,
  isJsonObject,
  jsonResumeValue,
  PROFILE_FIELDS,
  PROFILE_FIELDS_IN_META,
  profileLinkName,
  SECTIONS,
  WEBSITE,
  type SectionMapping,
} from "./json-resume-mapping.ts";

type JsonObject = Record<string, unknown>;

/** An imported entry's item and its index in its section's list. */
export interface KeptItem {
  position: number;
  item: JsonObject;
}

/** What a person's last JSON Resume import kept. */
export interface KeptJsonResume {
  /** The document without its sections' items: an empty list marks each section the document had. */
  document: JsonObject;
  /** Each imported entry's item, by entry id. */
  items: Record<string, KeptItem>;
}

/**
 * At import: the document to keep, and each section's items in document order
 * (the order of the converted entries, so item i goes with entry i).
 */
export function splitForKeeping(document: JsonObject): {
  document: JsonObject;
  items: Record<CollectionName, JsonObject[]>;
} {
  const rest = structuredClone(document);
  const items = {} as Record<CollectionName, JsonObject[]>;
  for (const { collection, section } of SECTIONS) {
    const list = getAt(rest, section);
    items[collection] = Array.isArray(list) ? (list as JsonObject[]) : [];
    if (Array.isArray(list)) setAt(rest, section, []);
  }
  return { document: rest, items };
}

/** The resume as JSON Resume, written over what its last import kept. */
export function restoreJsonResume(
  resume: WholeResume,
  kept: KeptJsonResume,
  freshItem: (mapping: SectionMapping, entry: JsonObject) => JsonObject,
  writeFreshProfile: (document: JsonObject, profile: NonNullable<WholeResume["profile"]>) => void,
): JsonObject {
  const document = structuredClone(kept.document);
  restoreProfile(document, resume.profile, writeFreshProfile);
  for (const mapping of SECTIONS) {
    const entries = resume[mapping.collection] as JsonObject[];
    const keptItems = entries.map((entry) => kept.items[entry.id as string]);
    const items = entries.map((entry, i) => {
      const keptItem = keptItems[i];
      return keptItem ? restoreItem(mapping, entry, keptItem.item) : freshItem(mapping, entry);
    });
    // The document's order while every entry is one it had; once one is new, the service's order.
    if (keptItems.every(Boolean)) {
      const order = items.map((item, i) => ({ item, position: keptItems[i]!.position }));
      order.sort((a, b) => a.position - b.position);
      items.splice(0, items.length, ...order.map(({ item }) => item));
    }
    // A section the document had as a list is written even when empty; `null` or none stays as it was.
    if (items.length > 0 || Array.isArray(getAt(document, mapping.section)))
      setAt(document, mapping.section, items);
  }
  return document;
}

function restoreItem(mapping: SectionMapping, entry: JsonObject, item: JsonObject): JsonObject {
  const read = entryReadFrom(mapping, item);
  const restored = structuredClone(item);
  for (const [field, key] of Object.entries(mapping.fields)) {
    const now = entry[field] ?? null;
    // A date is written again when how it reads changed (its spelling says that: "2014" or "2014-01-01").
    const readAlike = !DATE_FIELDS.has(field) || entry.date_precision === read?.date_precision;
    if (read && sameJson(now, read[field] ?? null) && readAlike) continue;
    if (now === null) delete restored[key];
    else restored[key] = jsonResumeValue(entry, field);
    // A work item's summary that was read as its one responsibility is that responsibility's old text,
    // and a `company` read as its name (the older schema's) that name's old text.
    if (field === "responsibilities" && item[key] === undefined) delete restored.summary;
    if (field === "organization" && item[key] === undefined) delete restored.company;
  }
  // Each date kept as it was spelled, the item may still read otherwise than the entry does ("2014"
  // to "2015-06" reads with months; with its end cleared, "2014" alone reads as a year): then its
  // dates are all written again.
  if (datedInYears(restored, mapping) !== (entry.date_precision === "year")) {
    for (const [field, key] of Object.entries(mapping.fields)) {
      if (DATE_FIELDS.has(field) && entry[field] != null) restored[key] = jsonResumeValue(entry, field);
    }
  }
  return restored;
}

/** The entry an import reads from `item` alone, as validation leaves it; undefined if it would not pass. */
function entryReadFrom({ collection, section }: SectionMapping, item: JsonObject): JsonObject | undefined {
  const single =
    section.length === 1 ? { [section[0]!]: [item] } : { meta: { "x-resume": { goals: [item] } } };
  const converted = (fromJsonResume(single).resume[collection] as unknown[] | undefined)?.[0];
  const parsed = COLLECTIONS.find((c) => c.name === collection)!.createInput.safeParse(converted);
  return parsed.success ? (parsed.data as JsonObject) : undefined;
}

function restoreProfile(
  document: JsonObject,
  profile: WholeResume["profile"],
  writeFreshProfile: (document: JsonObject, profile: NonNullable<WholeResume["profile"]>) => void,
): void {
  const basics = document.basics;
  if (!profile) {
    delete document.basics;
    for (const path of PROFILE_FIELDS_IN_META) deleteAt(document, path);
    return;
  }
  if (!isJsonObject(basics)) {
    // Read without a profile, the import set the profile's fields in `meta` aside: they are not its now.
    for (const path of PROFILE_FIELDS_IN_META) deleteAt(document, path);
    writeFreshProfile(document, profile);
    return;
  }
  const parsed = profileInput.safeParse(fromJsonResume({ basics, meta: document.meta }).resume.profile);
  const read = parsed.success ? (parsed.data as JsonObject) : undefined;
  for (const [field, path] of Object.entries(PROFILE_FIELDS)) {
    const now = (profile as JsonObject)[field] ?? null;
    if (read && sameJson(now, read[field] ?? null)) continue;
    if (field === "links") restoreLinks(basics, now as Record<string, string>);
    else if (now === null) deleteAt(document, path);
    else setAt(document, path, now);
  }
}

/**
 * The profile's links over the kept `basics.profiles` and `basics.url`: a
 * profile whose link is unchanged stays as it was (its username too), one
 * without a URL (no link at import) stays, a changed link gets its new URL,
 * a removed one goes, a new one is added.
 */
function restoreLinks(basics: JsonObject, links: Record<string, string>): void {
  const remaining = { ...links };
  const profiles: unknown[] = [];
  const kept = Array.isArray(basics.profiles) ? basics.profiles : [];
  // The import took `basics.url` as the link "website" only where no profile had that network.
  const websiteFromUrl = !kept.some(
    (profile) => isJsonObject(profile) && profile.url && profileLinkName(profile) === WEBSITE,
  );
  for (const profile of kept) {
    if (!isJsonObject(profile) || !profile.url) {
      profiles.push(profile);
      continue;
    }
    const network = profileLinkName(profile) ?? "";
    if (!Object.hasOwn(remaining, network)) continue;
    profiles.push(remaining[network] === profile.url ? profile : { ...profile, url: remaining[network] });
    delete remaining[network];
  }
  if (websiteFromUrl && basics.url !== undefined && basics.url !== null && basics.url !== "") {
    if (Object.hasOwn(remaining, WEBSITE)) basics.url = remaining[WEBSITE];
    else delete basics.url;
    delete remaining[WEBSITE];
  }
  // Kept beside the profile that was the link website, basics.url would be read as that link once the
  // profile is gone: with no website link left, it goes too.
  if (!websiteFromUrl && !Object.hasOwn(links, WEBSITE)) delete basics.url;
  for (const [network, url] of Object.entries(remaining)) profiles.push({ network, url });
  if (profiles.length > 0 || basics.profiles !== undefined) basics.profiles = profiles;
}

/** Equal as JSON, whatever the order of object keys (a stored object's keys come back in the database's order). */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key])]),
  );
}

export function getAt(document: JsonObject, path: DocumentPath): unknown {
  return path.reduce<unknown>(
    (node, key) => (isJsonObject(node) ? node[key as string] : undefined),
    document,
  );
}

export function setAt(document: JsonObject, path: DocumentPath, value: unknown): void {
  let node = document as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    if (!isJsonObject(node[key])) node[key] = {};
    node = node[key] as Record<string | number, unknown>;
  }
  node[path.at(-1)!] = value;
}

function deleteAt(document: JsonObject, path: DocumentPath): void {
  const parent = getAt(document, path.slice(0, -1));
  if (isJsonObject(parent)) delete parent[path.at(-1) as string];
}
