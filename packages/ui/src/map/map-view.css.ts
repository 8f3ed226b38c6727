/**
 * Leaflet's own stylesheet names system fonts ("Helvetica Neue", Arial for the container, popups
 * and tooltips; 'Lucida Console', Monaco, monospace for the zoom buttons). Those resolve to whatever
 * the machine has installed (DejaVu on one, Liberation on another), so the map's text and its "+" /
 * "−" looked different from machine to machine. These rules put every glyph Leaflet draws in the
 * kit's bundled faces. They are unlayered on purpose: Tailwind utilities live in a cascade layer and
 * lose to Leaflet's unlayered rules whatever their specificity.
 */
import { globalStyle } from '@vanilla-extract/css';
import { vars } from '../tokens/contract';

const root = '[data-slot="map-view"]';

globalStyle(`${root} .leaflet-container`, {
  fontFamily: vars.font.sans,
});

globalStyle(`${root} .leaflet-bar a, ${root} .leaflet-container a.leaflet-popup-close-button`, {
  fontFamily: vars.font.sans,
});

// Leaflet paints its bar buttons white with black text (unlayered), which dark mode inherited.
globalStyle(`${root} .leaflet-bar a`, {
  backgroundColor: vars.color.surface,
  color: vars.color.foreground,
  borderColor: vars.color.border,
});
globalStyle(`${root} .leaflet-bar a:hover`, {
  backgroundColor: vars.color.surfaceSunken,
});
globalStyle(`${root} .leaflet-bar a.leaflet-disabled`, {
  backgroundColor: vars.color.surfaceSunken,
  color: vars.color.foregroundMuted,
});
