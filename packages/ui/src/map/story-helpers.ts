/** Helpers shared by the map stories' play functions (not exported from the package). */
import type L from 'leaflet';
import { mapMessagesAr } from './messages.ar';
import { mapMessagesEn, type MapMessages } from './messages.en';

/** Map strings of the mode the story runs in (the provider mirrors the language onto <html>). */
export function mapLabels(el: HTMLElement): MapMessages {
  return el.ownerDocument.documentElement.lang === 'ar' ? mapMessagesAr : mapMessagesEn;
}

/** The Leaflet container inside a story. */
export function leafletContainer(root: HTMLElement): HTMLElement {
  const el = root.querySelector<HTMLElement>('[data-slot="map-canvas"]');
  if (!el) throw new Error('No map in the story');
  return el;
}

/** Dispatches a full mouse click at a container pixel of the Leaflet map. */
export function clickMapAt(
  container: HTMLElement,
  x: number,
  y: number,
  type: 'click' | 'dblclick' = 'click',
): void {
  const rect = container.getBoundingClientRect();
  const init: MouseEventInit = {
    bubbles: true,
    cancelable: true,
    clientX: rect.left + x,
    clientY: rect.top + y,
    button: 0,
    view: window,
  };
  container.dispatchEvent(new MouseEvent('mousedown', init));
  container.dispatchEvent(new MouseEvent('mouseup', init));
  container.dispatchEvent(new MouseEvent(type === 'dblclick' ? 'click' : 'click', init));
  if (type === 'dblclick') container.dispatchEvent(new MouseEvent('dblclick', init));
}

export function moveMouseAt(container: HTMLElement, x: number, y: number): void {
  const rect = container.getBoundingClientRect();
  container.dispatchEvent(
    new MouseEvent('mousemove', {
      bubbles: true,
      clientX: rect.left + x,
      clientY: rect.top + y,
      view: window,
    }),
  );
}

/** Container pixel of a coordinate. */
export function pointOf(map: L.Map, lat: number, lng: number): { x: number; y: number } {
  const p = map.latLngToContainerPoint([lat, lng]);
  return { x: p.x, y: p.y };
}

/**
 * Resolves once every map in `root` (if any) has settled: tiles loaded, no pan or zoom in progress
 * (MapView's `data-map-state="idle"`), no canvas layer redraw pending, for two frames in a row.
 * Map stories end their play function with it so screenshots never catch a map mid-update.
 */
export async function waitForMapIdle(root: HTMLElement, maxFrames = 600): Promise<void> {
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  const idle = () => {
    const views = root.querySelectorAll<HTMLElement>('[data-slot="map-view"]');
    for (const view of views) if (view.dataset.mapState !== 'idle') return false;
    return root.querySelector('[data-pending="true"]') === null;
  };
  // Counted in frames, not milliseconds: the visual run pins the clock.
  let quiet = 0;
  for (let n = 0; quiet < 2; n++) {
    if (n > maxFrames) throw new Error('map did not become idle');
    await frame();
    quiet = idle() ? quiet + 1 : 0;
  }
}
