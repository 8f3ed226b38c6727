/**
 * Structural shape of a location record (spec section 3). Core does not import the API client; it
 * accepts anything that looks like a location and is liberal in the encodings it reads
 * (ignition 1 / true / '1', coordinates as numbers or numeric strings).
 */
export interface IoElementValue {
  value: unknown;
}

export interface LocationLike {
  created_at: string;
  ignition?: number | boolean | string | null;
  is_idle?: number | boolean | string | null;
  latitude?: number | string | null;
  longitude?: number | string | null;
  speed?: number | null;
  io_elements?: Record<string, IoElementValue> | null;
  digital_output1?: number | boolean | string | null;
  digital_output2?: number | boolean | string | null;
}

/** The latest location of a vehicle. */
export type LatestLocationLike = LocationLike;

/** True for the "on" encodings 1, true, '1' and 'true' (case-insensitive). */
export function isOn(value: unknown): boolean {
  if (value === true || value === 1) return true;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    return text === '1' || text === 'true';
  }
  return false;
}
