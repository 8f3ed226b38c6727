import { z } from 'zod';
import { destination, normalizeBearing } from '../common/geo';
import type { SalikData } from './tariff';

/**
 * Salik gates as directed gate lines.
 *
 * Approximation (documented in data/salik-overlay.json too): salik.json gives one approximate point per
 * gantry. The pipeline draws a straight line of 2 x half_length metres through that point, perpendicular
 * to the road's bearing at the gantry. A vehicle crosses the gate when the segment between two of its
 * consecutive positions intersects that line; the side it crosses towards gives the direction of travel
 * ('forward' = along road_bearing_deg, 'reverse' = against it), and only charged directions count.
 */

export type GateDirection = 'forward' | 'reverse';

export interface SalikGate {
  readonly code: string;
  readonly nameEn: string;
  readonly nameAr: string;
  readonly lat: number;
  readonly lon: number;
  /** Compass bearing of the road axis at the gate, for the 'forward' direction. */
  readonly roadBearingDeg: number;
  readonly halfLengthM: number;
  /** Names of the two directions (same names mean the same direction across linked gates). */
  readonly directionNames: Readonly<Record<GateDirection, string>>;
  readonly charged: readonly GateDirection[];
  readonly linkedGroup?: string;
}

export interface GateLine {
  readonly gate: SalikGate;
  readonly a: { lat: number; lon: number };
  readonly b: { lat: number; lon: number };
}

const overlayGateSchema = z.object({
  road_bearing_deg: z.number().finite(),
  forward: z.string().min(1),
  reverse: z.string().min(1),
  charged: z.array(z.enum(['forward', 'reverse'])),
  half_length_m: z.number().positive().optional(),
});

export const salikOverlaySchema = z.object({
  default_half_length_m: z.number().positive().default(100),
  link_window_minutes: z.number().positive().default(60),
  gates: z.record(z.string(), overlayGateSchema),
  ramadan_periods: z.array(z.object({ from: z.string(), to: z.string() })).default([]),
  holidays: z.array(z.string()).default([]),
});

export type SalikOverlay = z.infer<typeof salikOverlaySchema>;

/** Combines the gate points of salik.json with the overlay's road geometry. Every gate needs an overlay entry. */
export function buildGates(data: SalikData, overlay: SalikOverlay): SalikGate[] {
  return data.gates.map((g) => {
    const o = overlay.gates[g.code];
    if (!o) throw new RangeError(`Salik gate ${g.code} has no road bearing in the overlay`);
    return {
      code: g.code,
      nameEn: g.name_en,
      nameAr: g.name_ar,
      lat: g.lat,
      lon: g.lon,
      roadBearingDeg: normalizeBearing(o.road_bearing_deg),
      halfLengthM: o.half_length_m ?? overlay.default_half_length_m,
      directionNames: { forward: o.forward, reverse: o.reverse },
      charged: o.charged,
      ...(g.linked_group ? { linkedGroup: g.linked_group } : {}),
    };
  });
}

/** The gate line: perpendicular to the road through the gate point. */
export function gateLine(gate: SalikGate): GateLine {
  const a = destination(gate.lat, gate.lon, gate.roadBearingDeg - 90, gate.halfLengthM);
  const b = destination(gate.lat, gate.lon, gate.roadBearingDeg + 90, gate.halfLengthM);
  return { gate, a, b };
}
