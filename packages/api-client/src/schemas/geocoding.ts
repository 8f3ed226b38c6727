/**
 * Reverse geocoding: the address of a position in the reader's language (X-Locale), from the
 * Nominatim-compatible geocoder the server is configured with (GEOCODER_URL). Without one the
 * feature is off and every address is null; the coordinates stay the truth either way.
 */
import { z } from 'zod';

const lat = z.coerce.number().min(-90).max(90);
const lng = z.coerce.number().min(-180).max(180);

export const reversePointSchema = z.object({ lat, lng });

export const reverseGeocodeInputSchema = z.object({
  /** Up to 25 positions per call (a page of a list). */
  points: z.array(reversePointSchema).min(1).max(25),
});

export const reverseGeocodeResponseSchema = z.object({
  data: z.object({
    /** False when no geocoder is configured (addresses are then always null). */
    enabled: z.boolean(),
    results: z.array(
      z.object({
        lat: z.number(),
        lng: z.number(),
        /** The address, or null: none known, geocoder unreachable, or rate limit reached. */
        address: z.string().nullable(),
      }),
    ),
  }),
});
export type ReverseGeocodeResponse = z.infer<typeof reverseGeocodeResponseSchema>;
