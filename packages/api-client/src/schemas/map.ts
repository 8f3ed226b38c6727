/**
 * Map base layers: the tile sources an operator configured on the server (environment or a settings
 * file), offered by every map of the portal in a layer switcher. With none configured the portal
 * draws the kit's bundled offline basemap, which is also the fallback when tiles fail to load.
 */
import { z } from 'zod';

/** `{z}`, `{x}` and `{y}` are required; `{s}` (subdomain) and `{r}` (retina suffix) are Leaflet's extras. */
const tileUrlTemplate = z
  .string()
  .max(2048)
  .refine((url) => /^https?:\/\//.test(url) || url.startsWith('/'), 'must be an http(s) URL or a same-origin path')
  .refine((url) => ['{z}', '{x}', '{y}'].every((p) => url.includes(p)), 'must contain {z}, {x} and {y}');

export const baseLayerSchema = z.object({
  /** Stable identifier (remembered as the user's choice). */
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'must be lowercase letters, digits, - or _'),
  name: z.object({ en: z.string().min(1).max(80), ar: z.string().min(1).max(80) }),
  url: tileUrlTemplate,
  /** HTML-free attribution text shown on the map (required by most tile licences). */
  attribution: z.string().max(300).default(''),
  maxZoom: z.number().int().min(1).max(24).default(19),
  /** Letters for `{s}` (e.g. "abc"). */
  subdomains: z.string().regex(/^[a-z0-9]{1,10}$/).optional(),
  /** Imagery (satellite, aerial) rather than a drawn street map. */
  kind: z.enum(['map', 'imagery']).default('map'),
});
export type BaseLayer = z.infer<typeof baseLayerSchema>;

export const baseLayerListSchema = z
  .array(baseLayerSchema)
  .max(20)
  .refine((layers) => new Set(layers.map((l) => l.id)).size === layers.length, 'layer ids must be unique');

export const baseLayersResponseSchema = z.object({
  data: z.object({
    /** Configured layers, in the order the switcher lists them; the first is the default. */
    layers: baseLayerListSchema,
  }),
});
export type BaseLayersResponse = z.infer<typeof baseLayersResponseSchema>;
