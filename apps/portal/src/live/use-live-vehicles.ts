import { useQuery } from '@tanstack/react-query';
import type { LiveVehiclesResponse } from '@fleet/api-client';
import { useServices, useSession } from '../state/app-context';

/** Up to this many vehicles are kept live in the browser (the API's maximum page of the live list). */
export const LIVE_LIMIT = 5000;

export function liveVehiclesKey(companyUuid: string | undefined) {
  return ['live-vehicles', companyUuid] as const;
}

/** Every vehicle of the company with its latest location; live updates are merged into this cache. */
export function useLiveVehicles() {
  const { api } = useServices();
  const { company } = useSession();
  return useQuery<LiveVehiclesResponse>({
    queryKey: liveVehiclesKey(company?.uuid),
    queryFn: ({ signal }) => api.request('vehicles.live', { query: { limit: LIVE_LIMIT }, signal }),
    enabled: Boolean(company),
    staleTime: Infinity,
    // Live updates replace one vehicle at a time; deep-comparing 1,000 vehicles per frame is wasted work.
    structuralSharing: false,
  });
}
