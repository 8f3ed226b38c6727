import { cachedAddresses } from '../geocoding/service';
import type { Queryable } from '../storage/db';

/** Addresses of positions in a language, in order (null where none is known). */
export type AddressLookup = (
  points: readonly { lat: number; lng: number }[],
  lang: 'en' | 'ar',
) => Promise<(string | null)[]>;

/**
 * Addresses for the places of a report page (stops, trip starts and ends), in the reader's language.
 *
 * The report routes pass a lookup bounded in time (GeocodingService.reverseWithin: the cache for the
 * whole page in one query, then the geocoder for the misses until GEOCODER_REPORT_WAIT_MS). Without
 * a lookup, as in the background export, only the cache is read: an export of many thousand rows
 * through a geocoder allowed one request a second would take hours, so it writes the addresses
 * already known and leaves the rest empty beside their coordinates. Without a language (a caller that
 * reads no addresses) every address is null and nothing is queried.
 */
export async function placeAddresses(
  db: Queryable,
  q: { readonly lang?: 'en' | 'ar' | undefined; readonly addresses?: AddressLookup | undefined },
  places: readonly ({ lat: number; lng: number } | null)[],
): Promise<(string | null)[]> {
  const lang = q.lang;
  const known = places.flatMap((p, i) => (p && Number.isFinite(p.lat) && Number.isFinite(p.lng) ? [i] : []));
  if (!lang || known.length === 0) return places.map(() => null);
  const points = known.map((i) => places[i]!);
  const found = q.addresses ? await q.addresses(points, lang) : await cachedAddresses(db, points, lang);
  const out: (string | null)[] = places.map(() => null);
  known.forEach((i, k) => (out[i] = found[k] ?? null));
  return out;
}
