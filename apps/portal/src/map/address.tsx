import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useServices } from '../state/app-context';

/** Set once the server says no geocoder is configured: no more address requests this session. */
let geocoderOff = false;

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
    queryFn: async ({ signal }) => {
      const answer = await api.request('geocoding.reverse', { body: { points: [{ lat: lat!, lng: lng! }] }, signal });
      if (!answer.data.enabled) geocoderOff = true;
      return answer.data.results[0]?.address ?? null;
    },
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
