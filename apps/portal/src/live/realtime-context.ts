import { createContext, useContext, useEffect, useRef } from 'react';
import { realtimeKey, type RealtimeClient, type RealtimeClientMessage } from '@fleet/api-client';

/**
 * A message as the portal's client hands it out: parsed with the contract's schemas (every message
 * is checked against its event's schema; one that does not fit is dropped and counted in
 * client.droppedCount, never cast), typed by event.
 */
export type PortalRealtimeMessage = RealtimeClientMessage;
export type PortalRealtimeClient = RealtimeClient;

export const RealtimeContext = createContext<PortalRealtimeClient | null>(null);

export function useRealtimeClient(): PortalRealtimeClient | null {
  return useContext(RealtimeContext);
}

/**
 * Listens to one real-time event about one subject (e.g. command-response of a device) while mounted.
 * The key follows core's rule (device-command-response arrives as command-response).
 */
export function useRealtimeEvent(
  event: string,
  path: string | null | undefined,
  listener: (data: unknown, message: PortalRealtimeMessage) => void,
) {
  const client = useRealtimeClient();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!client || !path) return;
    return client.on(realtimeKey(event, path), (data, message) => latest.current(data, message));
  }, [client, event, path]);
}
