import type { Queryable } from '../../../storage/db';
import { nameUuid } from '../../salik/api-gates';
import type { SalikCrossing } from '../../salik/detector';
import type { SalikEventStore } from '../ports';

/**
 * salik_events: contract fields in `data` (salikEventSchema). Idempotent: one row per (vehicle, gate,
 * time), enforced by a unique index (migration 0014). `gate_uuid` is the API gate record of the
 * crossing (see salik/api-gates.ts: one record per charged direction, name-based uuids when the gates
 * come from salik.json).
 */
export class SqlSalikEventStore implements SalikEventStore {
  constructor(private readonly db: Queryable) {}

  async insertSalikEvents(companyUuid: string, crossings: readonly SalikCrossing[]): Promise<number> {
    let inserted = 0;
    for (const c of crossings) {
      // The crossing id is vehicle:gate:time, the key of the unique index of migration 0014: a replayed
      // crossing (or two nodes racing) inserts nothing.
      const rows = await this.db.query(
        `INSERT INTO salik_events (company_id, vehicle_id, gate, direction, fee, at, data)
         SELECT c.id, v.id, $3, $4, $5, to_timestamp($6 / 1000.0), $7::jsonb
         FROM transport_companies c JOIN vehicles v ON v.uuid = $2 AND v.company_id = c.id
         WHERE c.uuid = $1
         ON CONFLICT (vehicle_id, gate, at) DO NOTHING
         RETURNING id`,
        [
          companyUuid,
          c.vehicleId,
          c.gateCode,
          c.directionName,
          c.fee,
          c.time,
          JSON.stringify({
            crossing_id: c.id,
            gate_uuid: gateUuid(c.gateCode, c.direction),
            gate_code: c.gateCode,
            gate_name: c.gateNameEn,
            gate_name_ar: c.gateNameAr,
            bearing: c.bearing,
            direction: c.direction,
            latitude: c.lat,
            longitude: c.lon,
            currency: c.currency,
            charged: c.fee > 0,
            linked_to: c.linkedTo ?? null,
            tariff: c.tariff,
          }),
        ],
      );
      inserted += rows.length;
    }
    return inserted;
  }
}

/** The API gate record a crossing belongs to (gates from the API already carry their uuid as code). */
export function gateUuid(code: string, direction: 'forward' | 'reverse'): string {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(code)
    ? code
    : nameUuid(`${code}:${direction}`);
}
