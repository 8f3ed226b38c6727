/**
 * Text drawn on the map's canvases uses the kit's bundled faces (Inter, Noto Sans Arabic), never a
 * system font: a canvas falls back silently to the machine's fonts when a face is not loaded yet, so
 * each canvas that draws text asks for its font first and repaints once it has arrived.
 */
import { font } from '../tokens/scales';

/** A CSS font shorthand in the kit's sans stack. */
export function canvasFont(weight: number, sizePx: number): string {
  return `${weight} ${sizePx}px ${font.sans}`;
}

/**
 * True when `spec` can draw `sample` with a loaded face now; otherwise starts loading it and calls
 * `onLoaded` once it is there (or the load failed: then there is nothing better to wait for).
 */
export function canvasFontReady(spec: string, sample: string, onLoaded: () => void): boolean {
  const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
  if (!fonts) return true;
  if (fonts.check(spec, sample)) return true;
  fonts.load(spec, sample).then(onLoaded, onLoaded);
  return false;
}
