import { useQuery } from '@tanstack/react-query';
import type { LiveVehiclesResponse } from '@fleet/api-client';
import { useServices, useSession } from '../state/app-context';

/** Up to this many vehicles are kept live in the browser (the API's maximum page of the live list). */
export const LIVE_LIMIT = 5000;

export function liveVehiclesKey(companyUuid: string | undefined) {
  return ['live-vehicles', companyUuid] as const;
}

/** Every vehicle of the company with its latest location; live updates are merged into this cache. */
function useLiveVehiclesOptions() {
  const { api } = useServices();
  const { company } = useSession();
  return {
    queryKey: liveVehiclesKey(company?.uuid),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.request('vehicles.live', { query: { limit: LIVE_LIMIT }, signal }),
    enabled: Boolean(company),
    staleTime: Infinity,
    // Live updates replace one vehicle at a time; deep-comparing 1,000 vehicles per batch is wasted work.
    structuralSharing: false,
  };
}

export function useLiveVehicles() {
  return useQuery<LiveVehiclesResponse>(useLiveVehiclesOptions());
}

/**
 * The ids of the live vehicles as one string (comma-separated, in list order). Same query and cache,
 * but the component only re-renders when the set of vehicles changes, not when they move.
 */
export function useLiveVehicleIds(): string {
  const query = useQuery<LiveVehiclesResponse, Error, string>({
    ...useLiveVehiclesOptions(),
    select: selectIds,
  });
  return query.data ?? '';
}

function selectIds(answer: LiveVehiclesResponse): string {
  return answer.data.map((v) => v.uuid).join(',');
}
