import { createContext, useContext, useEffect, useRef } from 'react';
import { realtimeKey, type RealtimeClient } from '@fleet/core';

export const RealtimeContext = createContext<RealtimeClient | null>(null);

export function useRealtimeClient(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

/**
 * Listens to one real-time event about one subject (e.g. command-response of a device) while mounted.
 * The key follows core's rule (device-command-response arrives as command-response).
 */
export function useRealtimeEvent(
  event: string,
  path: string | null | undefined,
  listener: (data: unknown) => void,
) {
  const client = useRealtimeClient();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!client || !path) return;
    return client.on(realtimeKey(event, path), (data) => latest.current(data));
  }, [client, event, path]);
}
