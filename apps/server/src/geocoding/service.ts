/**
 * Reverse geocoding with a cache and a rate limit.
 *
 * - Cache: geocode_cache (migration 0020), one row per position rounded to 4 decimals (~11 m) and
 *   language, in the database so every API node and every restart shares it. Misses the geocoder
 *   answered with "no address" are cached too (address null), failures are not.
 * - Rate limit: a geocoder such as Nominatim allows about one request a second per client
 *   (GEOCODER_RATE_PER_SEC, default 1). Requests to it are spaced by a token bucket of size one; a
 *   caller waits at most GEOCODER_WAIT_MS for its turn and otherwise gets null for that position
 *   (asked again next time), so a long list never blocks the API and the geocoder is never flooded.
 *   Concurrent asks for one key share a single request.
 * - Off: without GEOCODER_URL no geocoder is built and every address is null.
 * - Reports (reverseWithin): a report page never waits on the geocoder longer than its budget. The
 *   cache is read for the whole page in one query; the misses are asked of the geocoder (through the
 *   same rate limit), and whatever has not answered when the budget runs out is sent as null while
 *   its lookup goes on in the background and lands in the cache, so the next load of the page has it.
 *   A slow or dead geocoder therefore costs a report at most the budget, never a stall.
 */
import type { Queryable } from '../storage/db';
import type { ReverseGeocoder } from './nominatim';

export interface GeocodingOptions {
  ratePerSec: number;
  maxWaitMs: number;
  now?: () => number;
}

export const roundE4 = (v: number) => Math.round(v * 1e4);

/** Cache rows of rounded positions in one query, keyed "latE4,lngE4" (address null: known to have none). */
async function readCache(
  db: Queryable,
  keys: readonly { lat: number; lng: number }[],
  lang: 'en' | 'ar',
): Promise<Map<string, string | null>> {
  if (keys.length === 0) return new Map();
  const rows = await db.query<{ lat_e4: number; lng_e4: number; address: string | null }>(
    `SELECT lat_e4, lng_e4, address FROM geocode_cache
      WHERE lang = $1 AND (lat_e4, lng_e4) IN (SELECT * FROM unnest($2::int[], $3::int[]))`,
    [lang, keys.map((k) => k.lat), keys.map((k) => k.lng)],
  );
  return new Map(rows.map((r) => [`${r.lat_e4},${r.lng_e4}`, r.address]));
}

/** Addresses of `points` from the cache alone, in order (null when not cached). */
export async function cachedAddresses(
  db: Queryable,
  points: readonly { lat: number; lng: number }[],
  lang: 'en' | 'ar',
): Promise<(string | null)[]> {
  const keys = points.map((p) => ({ lat: roundE4(p.lat), lng: roundE4(p.lng) }));
  const hits = await readCache(db, keys, lang);
  return keys.map((k) => hits.get(`${k.lat},${k.lng}`) ?? null);
}

export class GeocodingService {
  private nextSlot = 0;
  private readonly inflight = new Map<string, Promise<string | null>>();
  private readonly now: () => number;

  constructor(
    private readonly db: Queryable,
    private readonly geocoder: ReverseGeocoder | null,
    private readonly options: GeocodingOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.geocoder !== null;
  }

  /** Addresses of `points` in `lang`, in order; null where none is known (yet). */
  async reverse(
    points: readonly { lat: number; lng: number }[],
    lang: 'en' | 'ar',
  ): Promise<(string | null)[]> {
    return Promise.all(await this.lookups(points, lang));
  }

  /**
   * Like {@link reverse}, but answers within `budgetMs`: lookups still running then are null in the
   * answer and go on in the background (their result is cached for the next ask).
   */
  async reverseWithin(
    points: readonly { lat: number; lng: number }[],
    lang: 'en' | 'ar',
    budgetMs: number,
  ): Promise<(string | null)[]> {
    const started = this.now();
    const answer: (string | null)[] = points.map(() => null);
    const lookups = await this.lookups(points, lang);
    const all = Promise.all(lookups.map((p, i) => p.then((a) => (answer[i] = a))));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const left = Math.max(0, budgetMs - (this.now() - started));
    await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
    return [...answer];
  }

  /** Cached addresses only (no geocoder call): what a background export writes. */
  async cached(
    points: readonly { lat: number; lng: number }[],
    lang: 'en' | 'ar',
  ): Promise<(string | null)[]> {
    return cachedAddresses(this.db, points, lang);
  }

  /** One promise per point (never rejecting): cache hits resolved, misses asked of the geocoder. */
  private async lookups(
    points: readonly { lat: number; lng: number }[],
    lang: 'en' | 'ar',
  ): Promise<Promise<string | null>[]> {
    if (!this.geocoder || points.length === 0) return points.map(() => Promise.resolve(null));
    const keys = points.map((p) => ({ lat: roundE4(p.lat), lng: roundE4(p.lng) }));
    const hits = await readCache(this.db, keys, lang);
    return keys.map((k) => {
      const id = `${k.lat},${k.lng}`;
      if (hits.has(id)) return Promise.resolve(hits.get(id) ?? null);
      return this.fetchOnce(k.lat, k.lng, lang).catch(() => null);
    });
  }

  private fetchOnce(latE4: number, lngE4: number, lang: 'en' | 'ar'): Promise<string | null> {
    const key = `${latE4},${lngE4},${lang}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetchAndStore(latE4, lngE4, lang).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  /** Takes the next request slot if it comes within the wait budget; false when the limit is reached. */
  private async takeSlot(): Promise<boolean> {
    const interval = 1000 / this.options.ratePerSec;
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    if (slot - now > this.options.maxWaitMs) return false;
    this.nextSlot = slot + interval;
    if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
    return true;
  }

  private async fetchAndStore(latE4: number, lngE4: number, lang: 'en' | 'ar'): Promise<string | null> {
    if (!(await this.takeSlot())) return null;
    let address: string | null;
    try {
      address = await this.geocoder!.reverse(latE4 / 1e4, lngE4 / 1e4, lang);
    } catch {
      return null; // unreachable or refused: not cached, asked again later
    }
    await this.db.query(
      `INSERT INTO geocode_cache (lat_e4, lng_e4, lang, address) VALUES ($1, $2, $3, $4)
       ON CONFLICT (lat_e4, lng_e4, lang) DO UPDATE SET address = EXCLUDED.address, fetched_at = now()`,
      [latE4, lngE4, lang, address],
    );
    return address;
  }
}
