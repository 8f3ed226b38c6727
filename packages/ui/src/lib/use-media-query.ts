import { useCallback, useSyncExternalStore } from 'react';

/**
 * Width under which the kit draws its phone layouts (DataTable cards, the map's bottom sheet).
 * Tailwind's `md` breakpoint minus one, the same line the portal uses for its small-screen layout
 * (where create and details routes fall back to the list, spec §2).
 */
export const PHONE_MAX_WIDTH = 767;
export const phoneQuery = `(max-width: ${PHONE_MAX_WIDTH}px)`;

/** True while `query` matches; false without a window (server rendering, tests without DOM). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window !== 'undefined' && !!window.matchMedia?.(query).matches,
    () => false,
  );
}

/** True on a phone-width viewport (see {@link PHONE_MAX_WIDTH}). */
export function usePhone(): boolean {
  return useMediaQuery(phoneQuery);
}
