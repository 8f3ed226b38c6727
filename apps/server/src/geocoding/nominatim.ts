/**
 * The geocoder adapter: Nominatim's reverse API (`/reverse?format=jsonv2&lat=&lon=&accept-language=`),
 * which self-hosted Nominatim, Photon's Nominatim facade, LocationIQ and others answer alike. The
 * base URL is GEOCODER_URL (e.g. http://nominatim.internal:8080); the answer's `display_name` is the
 * address. Tests talk to a stand-in HTTP server on loopback through the same code.
 */
export interface ReverseGeocoder {
  /** The address of a position in `lang`, null when the geocoder knows none. Throws when unreachable. */
  reverse(lat: number, lng: number, lang: 'en' | 'ar'): Promise<string | null>;
}

export class NominatimGeocoder implements ReverseGeocoder {
  constructor(
    private readonly baseUrl: string,
    private readonly options: { userAgent: string; timeoutMs: number; fetch?: typeof fetch },
  ) {}

  async reverse(lat: number, lng: number, lang: 'en' | 'ar'): Promise<string | null> {
    const url = new URL('reverse', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('lat', lat.toFixed(6));
    url.searchParams.set('lon', lng.toFixed(6));
    url.searchParams.set('zoom', '18');
    url.searchParams.set('accept-language', lang);
    const ask = () =>
      (this.options.fetch ?? fetch)(url, {
        headers: { 'user-agent': this.options.userAgent, accept: 'application/json', 'accept-language': lang },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    let response: Response;
    try {
      response = await ask();
    } catch (error) {
      // A pooled keep-alive connection the geocoder had already closed fails before the request
      // reaches it; that one is asked again once on a new connection (it never counted there).
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
      response = await ask();
    }
    if (!response.ok) throw new Error(`geocoder answered ${response.status}`);
    const body = (await response.json()) as { display_name?: unknown; error?: unknown };
    // Nominatim answers 200 with { error: "Unable to geocode" } at sea or far from any road.
    if (typeof body.display_name !== 'string' || body.display_name.trim() === '') return null;
    return body.display_name.trim().slice(0, 500);
  }
}
