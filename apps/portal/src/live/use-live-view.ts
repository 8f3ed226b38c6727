import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { statusTabs, type StatusTab } from '@fleet/core';
import type { LiveVehicle } from '@fleet/api-client';
import { liveStatuses, type StatusCounts } from './merge';
import { useLiveVehicles } from './use-live-vehicles';
import { useNow } from './use-now';

/** Shared state of the live map and list: the merged vehicles, their statuses, the tab and its counts. */
export function useLiveView() {
  const live = useLiveVehicles();
  const now = useNow();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: StatusTab = (statusTabs as readonly string[]).includes(raw ?? '') ? (raw as StatusTab) : 'all';
  const camera = params.get('camera') === '1';
  const vehicles = useMemo(() => live.data?.data ?? [], [live.data]);
  const { statusOf, counts: freshCounts } = useMemo(() => liveStatuses(vehicles, now), [vehicles, now]);
  // Same numbers, same object: the tabs (memoised) skip the frames where no count changed, which is
  // most of them while vehicles only move.
  const [counts, setCounts] = useState(freshCounts);
  if (!sameCounts(counts, freshCounts)) setCounts(freshCounts);
  const visible = useMemo<LiveVehicle[]>(
    () => (tab === 'all' ? vehicles : vehicles.filter((v) => statusOf.get(v.uuid) === tab)),
    [vehicles, statusOf, tab],
  );
  // Stable between live frames (they change the data, not the URL), so memoised children bail out.
  const setParam = useCallback(
    (key: string, value: string | null) => {
      const next = new URLSearchParams(params);
      if (value === null) next.delete(key);
      else next.set(key, value);
      setParams(next, { replace: true });
    },
    [params, setParams],
  );
  const setTab = useCallback(
    (value: StatusTab) => setParam('tab', value === 'all' ? null : value),
    [setParam],
  );
  const setCamera = useCallback((on: boolean) => setParam('camera', on ? '1' : null), [setParam]);
  return {
    live,
    now,
    vehicles,
    visible,
    statusOf,
    counts,
    tab,
    setTab,
    camera,
    setCamera,
    params,
    setParams,
  };
}

function sameCounts(a: StatusCounts, b: StatusCounts): boolean {
  return statusTabs.every((tab) => a[tab] === b[tab]);
}
