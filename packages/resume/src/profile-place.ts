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

/** A `tel:` link of a phone number as people write it: its digits and a leading plus. */
export function telUrl(phone: string): string {
  return `tel:${phone.replace(/(?!^\+)[^\d]/g, "")}`;
}
