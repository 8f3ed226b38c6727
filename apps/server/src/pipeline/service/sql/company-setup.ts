import type { Queryable } from '../../../storage/db';
import type { VehicleContext } from '../../alerts/engine';
import { alertRulesFrom, type NotificationRuleLike } from '../../alerts/from-rules';
import type { GeofenceShape } from '../../geofence/geometry';
import type { TrackingRule } from '../../geofence/tracker';
import type { CompanySetup, CompanySetupStore } from '../ports';

/**
 * A company's notification rules, active geofences and vehicles, as the engines take them (rule
 * scopes and ids are the public uuids).
 */
export class SqlCompanySetupStore implements CompanySetupStore {
  constructor(private readonly db: Queryable) {}

  async companySetup(companyUuid: string): Promise<CompanySetup> {
    const [company] = await this.db.query<{ id: number }>(
      'SELECT id FROM transport_companies WHERE uuid = $1',
      [companyUuid],
    );
    if (!company) throw new Error(`Unknown company ${companyUuid}`);
    const rules = await this.db.query<{ type: string; status: string; params: Record<string, unknown> }>(
      'SELECT type, status, params FROM notification_rules WHERE company_id = $1 ORDER BY created_at, id',
      [company.id],
    );
    const fences = await this.db.query<{
      uuid: string;
      name: string;
      geometry: {
        shape: string;
        center?: { latitude: number; longitude: number };
        radius?: number;
        points?: { latitude: number; longitude: number }[];
      };
      data: Record<string, unknown>;
      status: string;
    }>(
      "SELECT uuid, name, geometry, data, status FROM geofences WHERE company_id = $1 AND status = 'active'",
      [company.id],
    );
    const vehicles = await this.db.query<{
      uuid: string;
      plate: string;
      data: Record<string, unknown>;
      driver_uuid: string | null;
    }>(
      `SELECT v.uuid, v.license_plate_number AS plate, v.data, d.uuid AS driver_uuid
       FROM vehicles v LEFT JOIN drivers d ON d.id = v.driver_id WHERE v.company_id = $1`,
      [company.id],
    );
    const geofences = [];
    for (const f of fences) {
      const shape = toShape(f.geometry);
      if (!shape) continue;
      const tracking = (
        Array.isArray(f.data.tracking_rules) ? f.data.tracking_rules : ['entry', 'exit']
      ) as TrackingRule[];
      const nameAr = typeof f.data.name_ar === 'string' ? f.data.name_ar : undefined;
      geofences.push({
        id: f.uuid,
        name: f.name,
        nameEn: f.name,
        ...(nameAr ? { nameAr } : {}),
        shape,
        tracking,
      });
    }
    return {
      rules: alertRulesFrom(
        rules.map(
          (r) => ({ ...(r.params as object), type: r.type, status: r.status }) as NotificationRuleLike,
        ),
      ),
      geofences,
      vehicles: vehicles.map((v): VehicleContext => ({
        vehicleId: v.uuid,
        plate: v.plate,
        ...(typeof v.data.speed_limit === 'number' ? { speedLimitKmh: v.data.speed_limit } : {}),
        ...(v.driver_uuid ? { driverId: v.driver_uuid } : {}),
      })),
    };
  }
}

/** Geofence geometry of the API contract -> engine shape (null when unreadable). */
export function toShape(g: {
  shape: string;
  center?: { latitude: number; longitude: number };
  radius?: number;
  points?: { latitude: number; longitude: number }[];
}): GeofenceShape | null {
  if (g.shape === 'circle' && g.center && typeof g.radius === 'number') {
    return { kind: 'circle', lat: g.center.latitude, lon: g.center.longitude, radiusM: g.radius };
  }
  if (g.shape === 'polygon' && Array.isArray(g.points) && g.points.length >= 3) {
    return { kind: 'polygon', rings: [g.points.map((p) => [p.latitude, p.longitude] as const)] };
  }
  return null;
}
