import { useCallback, useEffect, useRef } from 'react';
import type { MapViewProps } from '@fleet/ui';

export type LeafletMap = Parameters<NonNullable<MapViewProps['onReady']>>[0];

/** Where the user left the live map (this tab's session): opening the page again returns there. */
const VIEW_KEY = 'fleet.live.view';

interface SavedView {
  center: [number, number];
  zoom: number;
}

function readSaved(): SavedView | null {
  try {
    const raw = sessionStorage.getItem(VIEW_KEY);
    const v = raw ? (JSON.parse(raw) as SavedView) : null;
    return v && Array.isArray(v.center) && Number.isFinite(v.zoom) ? v : null;
  } catch {
    return null;
  }
}

/** Maps narrower than this are phone maps (the portal's phone layout starts below 768 px). */
const PHONE_MAP_WIDTH = 768;
/**
 * The lowest zoom fit-to-fleet uses on a phone map. A fleet spread over the Emirates (or one vehicle
 * reporting from far away) fits a 390 px wide map only at zoom 6 or less, where the whole bundled
 * basemap region is a small rectangle with its faded margins around it: the map reads as an inset and
 * no road can be told apart. At zoom 10 a phone map spans about 50 km, the size of Dubai with
 * Sharjah, so the screen is filled with land, roads and place names; vehicles outside that view are a
 * pan or a zoom away (and the list and tabs still count them).
 */
const PHONE_MIN_FIT_ZOOM = 10;

/** The median position of a list (per coordinate): the middle of the bulk of the fleet, not its outliers. */
function medianOf(list: readonly { lat: number; lng: number }[]): [number, number] {
  const mid = (values: number[]) => {
    values.sort((a, b) => a - b);
    const k = values.length >> 1;
    return values.length % 2 ? values[k]! : (values[k - 1]! + values[k]!) / 2;
  };
  return [mid(list.map((p) => p.lat)), mid(list.map((p) => p.lng))];
}

/**
 * The live console's camera rules, in one place:
 * - first open with a vehicle in the address: centred on that vehicle (its card open over it), not the
 *   fleet, where on a phone it could be out of view;
 * - first open otherwise: fit the visible fleet once its positions are known (not one cluster in a corner); on a
 *   phone no further out than PHONE_MIN_FIT_ZOOM, centred on the middle of the fleet;
 * - afterwards the user's pan and zoom are kept (live updates never move the map), also across a
 *   return to the page in the same tab;
 * - choosing a vehicle flies to it (zooming in if far out).
 * Follow mode is the kit's FollowVehicle on the page (it also stops on a drag and recentres when on).
 */
export function useMapCamera(
  points: readonly { lat: number; lng: number }[],
  /**
   * A vehicle named in the address (`?vehicle=`, a link from its page or a notification): opened on it.
   * 'pending' while its position is not known yet (the map then waits rather than placing itself from
   * the kept view or the fleet), null when there is none to open on.
   */
  focus: { lat: number; lng: number } | null | 'pending' = null,
) {
  const mapRef = useRef<LeafletMap | null>(null);
  const placed = useRef(false);
  const saved = useRef(readSaved());

  const fit = useCallback((list: readonly { lat: number; lng: number }[]) => {
    const map = mapRef.current;
    if (!map || list.length === 0) return false;
    let [s, w, n, e] = [90, 180, -90, -180];
    for (const p of list) {
      s = Math.min(s, p.lat);
      n = Math.max(n, p.lat);
      w = Math.min(w, p.lng);
      e = Math.max(e, p.lng);
    }
    map.fitBounds(
      [
        [s, w],
        [n, e],
      ],
      { padding: [32, 32], maxZoom: 15, animate: false },
    );
    if (map.getSize().x < PHONE_MAP_WIDTH && map.getZoom() < PHONE_MIN_FIT_ZOOM) {
      map.setView(medianOf(list), PHONE_MIN_FIT_ZOOM, { animate: false });
    }
    return true;
  }, []);

  const place = useCallback(() => {
    if (placed.current || !mapRef.current) return;
    const view = saved.current;
    if (focus === 'pending') return;
    if (focus) {
      mapRef.current.setView([focus.lat, focus.lng], Math.max(view?.zoom ?? 0, 15), { animate: false });
      placed.current = true;
    } else if (view) {
      mapRef.current.setView(view.center, view.zoom, { animate: false });
      placed.current = true;
    } else if (fit(points)) placed.current = true;
  }, [fit, points, focus]);

  useEffect(place, [place]);

  const onReady = useCallback(
    (map: LeafletMap) => {
      mapRef.current = map;
      place();
    },
    [place],
  );

  const onViewChange = useCallback((view: SavedView) => {
    if (!placed.current) return;
    try {
      sessionStorage.setItem(VIEW_KEY, JSON.stringify(view));
    } catch {
      // private mode: the view is simply not remembered
    }
  }, []);

  const flyTo = useCallback((lat: number, lng: number) => {
    const map = mapRef.current;
    if (!map) return;
    placed.current = true;
    const zoom = Math.max(map.getZoom(), 15);
    // The card opens above the marker: aim a little north of it so the marker sits in the lower part
    // of the map and its card fits above it.
    const lift = Math.min(160, map.getSize().y / 4);
    const target = map.unproject(map.project([lat, lng], zoom).subtract([0, lift]), zoom);
    map.flyTo(target, zoom, { duration: 0.6 });
  }, []);

  return { onReady, onViewChange, flyTo, fitAll: () => fit(points), mapRef };
}
