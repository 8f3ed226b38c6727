import { createHash } from 'node:crypto';
import { bearingDeg, destination, haversineM, normalizeBearing } from '../common/geo';
import { gateLine, type GateDirection, type SalikGate } from './gates';

/**
 * Conversion between the pipeline's gates and the API contract's Salik gate (salikGateSchema of
 * @fleet/api-client: a gate line, ONE charged bearing, an optional linked gate).
 *
 * Because the contract holds one charged direction per gate, a gantry charged both ways is seeded as two
 * API gates on the same line (one per direction, uuids named after `code:direction`), and a linked pair
 * links the same-direction records of its two gantries. Converting back gives detector gates that each
 * charge one direction ('forward' = the charged bearing); the linked group is the pair of uuids.
 */

export interface ApiSalikGate {
  readonly uuid: string;
  readonly name: string;
  readonly name_ar: string | null;
  readonly line_start: { readonly latitude: number; readonly longitude: number };
  readonly line_end: { readonly latitude: number; readonly longitude: number };
  readonly charged_bearing: number;
  readonly linked_gate_uuid: string | null;
  readonly status: string;
}

/** Name-based UUID (version 5 layout over SHA-1). */
export function nameUuid(name: string): string {
  const h = createHash('sha1').update(`fleet:salik-gate:${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The seed records for the API: one per charged direction of each gate. */
export function gatesToApi(gates: readonly SalikGate[]): ApiSalikGate[] {
  const out: ApiSalikGate[] = [];
  for (const g of gates) {
    const line = gateLine(g);
    for (const dir of g.charged) {
      const partner = g.linkedGroup
        ? gates.find((o) => o.code !== g.code && o.linkedGroup === g.linkedGroup && o.charged.includes(dir))
        : undefined;
      out.push({
        uuid: nameUuid(`${g.code}:${dir}`),
        name: g.nameEn,
        name_ar: g.nameAr,
        line_start: { latitude: line.a.lat, longitude: line.a.lon },
        line_end: { latitude: line.b.lat, longitude: line.b.lon },
        charged_bearing: Math.round(normalizeBearing(g.roadBearingDeg + (dir === 'forward' ? 0 : 180))),
        linked_gate_uuid: partner ? nameUuid(`${partner.code}:${dir}`) : null,
        status: 'active',
      });
    }
  }
  return out;
}

/** Detector gates from the API records (inactive gates are left out). */
export function gatesFromApi(records: readonly ApiSalikGate[]): SalikGate[] {
  return records
    .filter((r) => r.status === 'active')
    .map((r) => {
      const a = r.line_start;
      const b = r.line_end;
      const halfLengthM = haversineM(a.latitude, a.longitude, b.latitude, b.longitude) / 2;
      const mid = destination(
        a.latitude,
        a.longitude,
        bearingDeg(a.latitude, a.longitude, b.latitude, b.longitude),
        halfLengthM,
      );
      const forward: GateDirection = 'forward';
      const linkedGroup = r.linked_gate_uuid ? [r.uuid, r.linked_gate_uuid].sort().join('|') : undefined;
      return {
        code: r.uuid,
        nameEn: r.name,
        nameAr: r.name_ar ?? r.name,
        lat: mid.lat,
        lon: mid.lon,
        // The road axis is given by the charged direction of travel; the drawn line itself is kept.
        roadBearingDeg: normalizeBearing(r.charged_bearing),
        halfLengthM,
        directionNames: { forward: 'charged', reverse: 'uncharged' },
        charged: [forward],
        ...(linkedGroup ? { linkedGroup } : {}),
      };
    });
}
