import type { ApiIssue, DescribeIssue } from "@app/rest";
import { formatDocumentPath, type DocumentPath } from "@app/rest/paths";
import { LIMITS } from "../limits.ts";
import { renameFields } from "../rename-fields.ts";
import { PROFICIENCIES } from "../schemas/skill.ts";
import {
  DATE_FIELDS,
  datedInYears,
  fullDate,
  isJsonObject,
  isPresent,
  PROFILE_FIELDS,
  PROFILE_FIELDS_IN_META,
  profileLinkName,
  SECTIONS,
  WEBSITE,
} from "./json-resume-mapping.ts";

type JsonObject = Record<string, unknown>;

/** A JSON Resume document turned into the service's whole-resume JSON, not yet validated. */
export interface ConvertedJsonResume {
  /** The resume in the service's vocabulary, for the same validation as a native import. */
  resume: JsonObject;
  /** Paths of what the document holds and the service does not store. */
  ignored: string[];
  /** Problems with the document's shape itself (a section that is not an array). */
  issues: ApiIssue[];
  /** A validation issue of the converted resume, told at its place in the document. */
  describeIssue: DescribeIssue;
}

const DATE_MESSAGE = "must be a real date: YYYY-MM-DD, YYYY-MM or YYYY";
/** The keys of `basics.location`, each a field of the profile. */
const LOCATION_KEYS = ["address", "city", "region", "postalCode", "countryCode"];

/**
 * Reads a JSON Resume document (docs/resume-api.md, "JSON Resume export and import"): what has a home is
 * mapped by json-resume-mapping.ts, partial dates mean their first day, a
 * skill's `level` is read case-insensitively (`master` is expert, anything
 * else unknown intermediate), a skill without `x-category` is a tool, a work
 * item's `summary` is its one responsibility when it has no
 * `x-responsibilities`. Everything else is listed in `ignored` (and kept:
 * kept-json-resume.ts).
 */
export function fromJsonResume(document: unknown): ConvertedJsonResume {
  const issues: ApiIssue[] = [];
  const ignored: string[] = [];
  /** The object at `path`, or undefined when absent; anything else is an issue. */
  const objectAt = (value: unknown, path: DocumentPath): JsonObject | undefined => {
    if (value === undefined || value === null) return undefined;
    if (isJsonObject(value)) return value;
    issues.push({ path: formatDocumentPath(path), message: "must be an object" });
    return undefined;
  };
  /** The objects of the array at `path`; past `most` items, one issue and none (not one issue per item). */
  const objectsAt = (value: unknown, path: DocumentPath, most: number, tooMany: string): JsonObject[] => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      issues.push({ path: formatDocumentPath(path), message: "must be an array" });
      return [];
    }
    if (value.length > most) {
      issues.push({ path: formatDocumentPath([...path, most]), message: tooMany });
      return [];
    }
    value.forEach((item, i) => {
      if (!isJsonObject(item))
        issues.push({ path: formatDocumentPath([...path, i]), message: "must be an object" });
    });
    // The list's other issues wait for its shape: read without the items that are no objects, the
    // items after them would be told at the wrong index.
    return value.every(isJsonObject) ? value : [];
  };
  const ignoreOtherKeys = (object: JsonObject, path: DocumentPath, used: Iterable<string>) => {
    const keep = new Set(used);
    for (const key of Object.keys(object))
      if (!keep.has(key)) ignored.push(formatDocumentPath([...path, key]));
  };

  if (!isJsonObject(document)) {
    return {
      resume: {},
      ignored,
      issues: [{ path: "", message: "must be a JSON Resume document (an object)" }],
      describeIssue: () => ({ path: "", message: "" }),
    };
  }
  const sectionRoots = new Set(SECTIONS.map(({ section }) => section[0] as string));
  ignoreOtherKeys(document, [], [...sectionRoots, "basics"]);

  const meta = objectAt(document.meta, ["meta"]);
  const extension = meta && objectAt(meta["x-resume"], ["meta", "x-resume"]);
  if (meta) ignoreOtherKeys(meta, ["meta"], ["x-resume"]);
  if (extension) ignoreOtherKeys(extension, ["meta", "x-resume"], ["goals", "goalsSummary", "language"]);

  // ---------------------------------------------------------------- basics -> profile
  const resume: JsonObject = {};
  const linkIndex = new Map<string, number>();
  /** Link names read from a profile's URL host, the profile having no network. */
  const namedByHost = new Set<string>();
  const basics = objectAt(document.basics, ["basics"]);
  if (basics) {
    ignoreOtherKeys(
      basics,
      ["basics"],
      ["name", "label", "summary", "email", "phone", "location", "profiles", "url"],
    );
    // No prototype: a network named "__proto__" is a key like any other, which validation then refuses.
    const links: JsonObject = Object.create(null) as JsonObject;
    // A profile without a URL (a network and a username) is no link: it is set aside, not counted.
    const profiles = objectsAt(
      basics.profiles,
      ["basics", "profiles"],
      LIMITS.listItems,
      `at most ${LIMITS.listItems} profiles`,
    );
    let linkCount = 0;
    profiles.forEach((profile, i) => {
      const path = ["basics", "profiles", i];
      if (profile.url === undefined || profile.url === null || profile.url === "") {
        ignored.push(formatDocumentPath(path));
        return;
      }
      if (++linkCount > LIMITS.links) {
        if (linkCount === LIMITS.links + 1)
          issues.push({ path: formatDocumentPath(path), message: `at most ${LIMITS.links} links` });
        return;
      }
      ignoreOtherKeys(profile, path, ["network", "url"]);
      const network = profileLinkName(profile);
      // Without a network (or with a blank one) the link is named by its URL's host.
      const mistyped = profile.network != null && typeof profile.network !== "string";
      const byHost = !mistyped && String(profile.network ?? "").trim() === "";
      if (network === undefined && byHost)
        // No network to name the link by, nor a URL with a host.
        issues.push({
          path: formatDocumentPath([...path, "url"]),
          message: "must be an absolute http(s) URL",
        });
      else if (network === undefined)
        issues.push({ path: formatDocumentPath([...path, "network"]), message: "must be a string" });
      else if (linkIndex.has(network))
        issues.push(
          byHost
            ? {
                path: formatDocumentPath([...path, "url"]),
                message: `its host "${network}" names another link: give it a network`,
              }
            : { path: formatDocumentPath([...path, "network"]), message: `"${network}" appears twice` },
        );
      else {
        linkIndex.set(network, i);
        if (byHost) namedByHost.add(network);
        links[network] = profile.url;
      }
    });
    if (basics.url !== undefined && basics.url !== null && basics.url !== "") {
      if (linkIndex.has(WEBSITE)) ignored.push("basics.url");
      else links[WEBSITE] = basics.url;
    }
    const location = objectAt(basics.location, ["basics", "location"]);
    if (location) ignoreOtherKeys(location, ["basics", "location"], LOCATION_KEYS);
    resume.profile = {
      name: basics.name,
      headline: basics.label,
      summary: basics.summary,
      email: basics.email,
      phone: basics.phone,
      location: location?.address,
      city: location?.city,
      region: location?.region,
      postal_code: location?.postalCode,
      country_code: location?.countryCode,
      links,
      goals_summary: extension?.goalsSummary,
      language: extension?.language,
    };
  } else {
    // The profile's fields kept in `meta` need a profile to be kept in.
    for (const path of PROFILE_FIELDS_IN_META)
      if (extension?.[path[2] as string] !== undefined) ignored.push(formatDocumentPath(path));
  }

  // ---------------------------------------------------------------- sections -> collections
  /** Work items whose responsibilities came from `summary`. */
  const summaryAsResponsibility = new Set<number>();
  /** Work items named by `company`, the older schema's name for `name`. */
  const companyAsName = new Set<number>();
  for (const mapping of SECTIONS) {
    const { collection, section, fields } = mapping;
    const container = section.length === 1 ? document : extension;
    const most = LIMITS.entriesPerCollection;
    const items = objectsAt(
      container?.[section.at(-1)!],
      section,
      most,
      `at most ${most} ${collection} entries`,
    );
    resume[collection] = items.map((item, i) => {
      const entry: JsonObject = {};
      const used = Object.values(fields);
      for (const [field, key] of Object.entries(fields)) {
        let value = item[key];
        if (
          collection === "experience" &&
          key === "name" &&
          value === undefined &&
          item.company !== undefined
        ) {
          value = item.company;
          companyAsName.add(i);
          used.push("company");
        }
        // "present" (any case) is how many tools write a current role's end: none.
        if (field === "end_date" && isPresent(value)) value = null;
        entry[field] = DATE_FIELDS.has(field) ? fullDate(value) : value;
      }
      if (datedInYears(item, mapping)) entry.date_precision = "year";
      if (collection === "skills") {
        entry.category ??= "tool";
        entry.proficiency = proficiencyOf(entry.proficiency);
      }
      if (collection === "experience" && item["x-responsibilities"] === undefined && item.summary) {
        entry.responsibilities = [item.summary];
        summaryAsResponsibility.add(i);
        used.push("summary");
      }
      ignoreOtherKeys(item, [...section, i], used);
      return entry;
    });
  }

  function documentPathOf(path: readonly PropertyKey[], code: string | undefined): DocumentPath {
    const [root, ...rest] = path as (string | number)[];
    if (root === "profile") {
      const [field, key] = rest;
      if (field === undefined) return ["basics"];
      if (field === "links" && typeof key === "string" && linkIndex.has(key)) {
        // A link name refused (by its record key rule, or as __proto__) is the profile's network,
        // or its URL where the name is the URL's host.
        const about =
          (code === "invalid_key" || key === "__proto__") && !namedByHost.has(key) ? "network" : "url";
        return ["basics", "profiles", linkIndex.get(key)!, about];
      }
      if (field === "links" && key === WEBSITE) return ["basics", "url"];
      return PROFILE_FIELDS[field as string] ?? ["basics"];
    }
    const mapping = SECTIONS.find((s) => s.collection === root)!;
    const [index, field, ...deeper] = rest;
    if (index === undefined) return mapping.section;
    if (field === undefined) return [...mapping.section, index];
    if (field === "responsibilities" && summaryAsResponsibility.has(index as number))
      return [...mapping.section, index, "summary"];
    if (field === "organization" && companyAsName.has(index as number))
      return [...mapping.section, index, "company"];
    return [...mapping.section, index, mapping.fields[field] ?? field, ...deeper];
  }

  return {
    resume,
    ignored,
    issues,
    describeIssue(path, message, code) {
      const field = path[0] === "profile" ? undefined : path[2];
      if (typeof field === "string" && DATE_FIELDS.has(field) && message.startsWith("must be a real date"))
        message = DATE_MESSAGE;
      // A message that names another field ("must not be before start_date") names it as the document does.
      const keys = SECTIONS.find((s) => s.collection === path[0])?.fields ?? {};
      const [root, part, key] = path;
      if (code === "invalid_key" && root === "profile" && part === "links" && namedByHost.has(String(key)))
        message = `its host names the link (the profile has no network), and ${message}: give it a network`;
      return {
        path: formatDocumentPath(documentPathOf(path, code)),
        message: renameFields(message, Object.entries(keys)),
      };
    },
  };
}

function proficiencyOf(level: unknown): unknown {
  if (level === undefined || level === null) return undefined;
  // Some tools write a number (4, of 5): no level of ours, read as any other unknown one.
  if (typeof level !== "string" && typeof level !== "number") return level;
  const name = String(level).trim().toLowerCase();
  if (name === "master") return "expert";
  return (PROFICIENCIES as readonly string[]).includes(name) ? name : "intermediate";
}
