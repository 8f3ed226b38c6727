import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useServices } from '../state/app-context';

/** Set once the server says no geocoder is configured: no more address requests this session. */
let geocoderOff = false;

type Api = ReturnType<typeof useServices>['api'];
interface Waiting {
  lat: number;
  lng: number;
  resolve: (address: string | null) => void;
  reject: (error: unknown) => void;
}
const queues = new Map<'en' | 'ar', Waiting[]>();

/**
 * Positions asked for in the same tick (a table's place cells) go out together, 25 per request (the
 * contract's limit), instead of one request per cell.
 */
function loadAddress(api: Api, lang: 'en' | 'ar', lat: number, lng: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let queue = queues.get(lang);
    if (!queue) {
      queue = [];
      queues.set(lang, queue);
      setTimeout(() => {
        const batch = queues.get(lang) ?? [];
        queues.delete(lang);
        for (let i = 0; i < batch.length; i += 25) {
          const chunk = batch.slice(i, i + 25);
          api
            .request('geocoding.reverse', { body: { points: chunk.map(({ lat, lng }) => ({ lat, lng })) } })
            .then((answer) => {
              if (!answer.data.enabled) geocoderOff = true;
              chunk.forEach((w, j) => w.resolve(answer.data.results[j]?.address ?? null));
            })
            .catch((error: unknown) => chunk.forEach((w) => w.reject(error)));
        }
      }, 0);
    }
    queue.push({ lat, lng, resolve, reject });
  });
}

/**
 * The address of a position in the reader's language (POST /v1/geocoding/reverse), cached per
 * position (rounded to ~11 m, as the server caches it) and language for the whole session. Null
 * while loading, when no geocoder is configured, or when it knows no address.
 */
export function useAddress(lat: number | null | undefined, lng: number | null | undefined): string | null {
  const { api } = useServices();
  const { i18n } = useTranslation();
  const lang = i18n.language === 'ar' ? 'ar' : 'en';
  const ok = typeof lat === 'number' && typeof lng === 'number';
  const query = useQuery({
    queryKey: ['address', lang, ok ? Math.round(lat * 1e4) : 0, ok ? Math.round(lng * 1e4) : 0],
    queryFn: () => loadAddress(api, lang, lat!, lng!),
    enabled: ok && !geocoderOff,
    staleTime: Infinity,
    retry: false,
  });
  return query.data ?? null;
}

/** An address line when one is known; renders nothing otherwise (coordinates are shown beside it). */
export function PlaceAddress({ lat, lng, className }: { lat: number; lng: number; className?: string }) {
  const address = useAddress(lat, lng);
  if (!address) return null;
  return (
    <span data-testid="place-address" className={className}>
      {address}
    </span>
  );
}
