/**
 * The name of a file of the resume of `personName`: `Ada-Lovelace-resume.pdf`,
 * or with a `variant`, `Ada-Lovelace-resume-data.json` (`my-resume.pdf`
 * without a name). Characters no file system takes become hyphens.
 */
export function resumeFileName(personName: string, extension: string, variant?: string): string {
  return fileNameOf(safe(personName), extension, variant);
}

function fileNameOf(name: string, extension: string, variant?: string): string {
  return `${hyphenated(name) || "my"}-resume${variant ? `-${variant}` : ""}.${extension}`;
}

/** Words joined by single hyphens; a joiner at a word's edge (safe keeps them) joins nothing and goes. */
const hyphenated = (text: string) =>
  text
    .split(/[\s-]+/)
    .map((word) => word.replace(/^[\u200C\u200D]+|[\u200C\u200D]+$/g, ""))
    .filter(Boolean)
    .join("-");

/**
 * Without the characters file systems refuse in a name, nor the invisible
 * format characters (a bidi override would show the name's end reversed),
 * but the zero-width joiner and non-joiner, which are part of the name they
 * are in: an emoji sequence (👩‍💻) and Persian words (علی‌رضا) are spelt with them.
 */
const safe = (text: string) => text.replace(/[\\/:*?"<>|\p{Cc}]|(?![\u200C\u200D])\p{Cf}/gu, " ");

/** Latin letters without their accents; anything else but ASCII letters, digits and `._-` a space. */
const asciiOf = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[ŁłØøĐđßÆæŒœÞþı]/g, (letter) => LATIN_LETTERS[letter]!)
    .replace(/[^A-Za-z0-9._-]+/g, " ");

/**
 * `Content-Disposition: attachment` naming the file `<name>-resume.<ext>`, or
 * `<name>-resume-<variant>.<ext>` (a tailored version's name, its words
 * joined by hyphens as the person's are), as RFC 6266 has it: `filename`
 * holds an ASCII form (accents dropped, other scripts left out), `filename*`
 * the name itself, UTF-8 and percent-encoded, for the clients that read it
 * (every current browser).
 */
export function attachmentDisposition(personName: string, extension: string, variant?: string): string {
  const exact = resumeFileName(personName, extension, variant && hyphenated(safe(variant)));
  const ascii = fileNameOf(asciiOf(personName), extension, variant && hyphenated(asciiOf(variant)));
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(exact)}`;
}

/** Latin letters that Unicode does not decompose into a base letter and a mark. */
const LATIN_LETTERS: Record<string, string> = {
  Ł: "L",
  ł: "l",
  Ø: "O",
  ø: "o",
  Đ: "D",
  đ: "d",
  ß: "ss",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  Þ: "Th",
  þ: "th",
  ı: "i",
};

/** RFC 5987's value-chars: letters, digits and `!#$&+-.^_`|~`; everything else percent-encoded. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
