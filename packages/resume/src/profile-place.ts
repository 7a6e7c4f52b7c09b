import type { Profile } from "./schemas/profile.ts";

type Place = Pick<Profile, "location" | "city" | "region" | "postal_code" | "country_code">;

/**
 * Where the person is, as the one line a resume shows: the location as
 * written, then the city, the region with its postal code, and the country
 * ("2712 Broadway St, San Francisco, California CA 94115, US"); parts left
 * empty leave no separator behind. Null when there is none.
 */
export function profilePlace(profile: Place): string | null {
  const regionLine = [profile.region, profile.postal_code].filter(Boolean).join(" ");
  const parts = [profile.location, profile.city, regionLine, profile.country_code].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

/**
 * Where the text of a second number starts: after a comma, a semicolon (but
 * RFC 3966's ";ext="), a bar, a line break, or a slash with a space beside it.
 */
const ANOTHER_NUMBER = /[,|\n\r\u2028\u2029]|;(?!ext=)|\s\/|\/\s/i;

/**
 * One number, read from the typed text: a label without digits before it
 * ("Mobile: "); the number, a plus and digits with the signs written between
 * them; an extension ("ext. 89", "x89", "#89", ";ext=89"); words after it,
 * apart from it ("(WhatsApp)"). Letters joined to the number
 * (1-800-FLOWERS) do not match.
 */
const ONE_NUMBER =
  /^[^\d+]*(\+?\s*(?:\d|\()(?:[\d\s()./\p{Pd}]*[\d)])?)\s*(?:(?:;ext=|ext\.?|extension|x|#)\s*(\d+))?(?:[^\p{L}\p{N}\p{Pd}+/][^\d+]*)?$/iu;

/** A decimal digit of any script as its ASCII digit: Unicode encodes each script's 0 to 9 in a row. */
function asciiDigit(digit: string): string {
  let zero = digit.codePointAt(0)!;
  while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
  return String((digit.codePointAt(0)! - zero) % 10);
}

/**
 * The `tel:` link of a phone number as people write it, to the number a phone
 * dials: an RFC 3966 global number (`tel:+442079460958`) when it starts with
 * a plus, else its digits as written (dialled where they were written). The
 * first number only ("0151 1234567 / 030 123456"); a trunk prefix in brackets
 * after the country code left out ("+44 (0)20" is dialled +44 20); an
 * extension as `;ext=89`, not more digits. Null when the text cannot be read
 * as one number of 3 to 15 digits (E.164): no link is better than a wrong one.
 */
export function telUrl(phone: string): string | null {
  const first = phone
    .split(ANOTHER_NUMBER)[0]!
    .replace(/\p{Nd}/gu, asciiDigit)
    .trim();
  const [, number, extension] = ONE_NUMBER.exec(first) ?? [];
  if (!number) return null;
  const global = number.startsWith("+");
  const digits = (global ? number.replace(/\(\s*0\s*\)/, "") : number).replace(/\D/g, "");
  if (digits.length < 3 || digits.length > 15) return null;
  return `tel:${global ? "+" : ""}${digits}${extension ? `;ext=${extension}` : ""}`;
}
