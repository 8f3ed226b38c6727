import type { FastifyInstance } from 'fastify';
import { parseCalibrationCsv, validateCalibration, type CalibrationError } from '@fleet/core';
import { route } from '../http/route';
import { fieldError, HttpError, notFound } from '../http/errors';
import { scopeSql } from '../entities/scope';
import { logActivity } from '../activity/log';
import { listRawFrames } from '../gateway/raw-archive';
import { replayRawFrames } from '../gateway/replay';
import { deviceFrameCounts } from '../gateway/frame-counters';
import { DEFAULT_IGNITION, loadSensorSettings, type SensorSetting } from '../gateway/sensors';
import { enqueueSensorRepair } from '../gateway/sensor-repair';
import type { DeviceRef } from '../storage/storage';

/**
 * Devices in the field (issue 19): raw-frame archive and replay, frame counters, sensor settings.
 *
 * Who may do what (one place):
 * - The raw-frame archive (list, replay) is a platform operator's tool: super admins only, in any
 *   company they act in (frames carry network addresses and raw data; a replay writes history).
 * - Frame counters: whoever may view devices (`devices.view`), within their scope.
 * - Sensor settings: read with `devices.view`, changed with `devices.update`, within their scope; each
 *   change is a new row (history kept) and is written to the activity log.
 */
export function registerDeviceFieldRoutes(app: FastifyInstance): void {
  const { storage, bus, now } = app.ctx;
  const db = storage.db;

  async function deviceOf(uuid: string, tenant: Parameters<typeof scopeSql>[2]): Promise<DeviceRef> {
    const params: unknown[] = [uuid];
    const rows = await db.query<{
      id: number;
      uuid: string;
      imei: string;
      type: string;
      status: string;
      company_id: number;
      company_uuid: string;
      vehicle_id: number | null;
      vehicle_uuid: string | null;
    }>(
      `SELECT d.id, d.uuid, d.imei, d.type, d.status, d.company_id, c.uuid AS company_uuid,
              v.id AS vehicle_id, v.uuid AS vehicle_uuid
       FROM devices d JOIN transport_companies c ON c.id = d.company_id
       LEFT JOIN LATERAL (SELECT id, uuid FROM vehicles WHERE device_imei = d.imei OR gps_device_imei = d.imei
                          ORDER BY (device_imei = d.imei) DESC LIMIT 1) v ON true
       WHERE d.uuid = $1 AND ${scopeSql('devices', 'd', tenant, params)}`,
      params,
    );
    const r = rows[0];
    if (!r) throw notFound('Device');
    return {
      deviceId: Number(r.id),
      deviceUuid: r.uuid,
      imei: r.imei,
      type: r.type,
      status: r.status,
      companyId: Number(r.company_id),
      companyUuid: r.company_uuid,
      vehicleId: r.vehicle_id === null ? null : Number(r.vehicle_id),
      vehicleUuid: r.vehicle_uuid,
    };
  }

  const requireSuperAdmin = (principal: { user: { isSuperAdmin: boolean } }) => {
    if (!principal.user.isSuperAdmin) throw new HttpError(403, 'forbidden');
  };

  route(app, 'devices.rawFrames', async ({ params, query, principal, tenant }) => {
    requireSuperAdmin(principal);
    const device = await deviceOf(params.uuid, tenant);
    const rows = await listRawFrames(db, device.deviceId, { limit: query.limit });
    return {
      data: rows.map((r) => ({
        id: r.id,
        protocol: r.protocol,
        imei: r.imei,
        remote_address: r.remoteAddress,
        bytes_hex: r.bytesHex,
        size: r.size,
        reason: r.reason,
        received_at: r.receivedAt.toISOString(),
        last_seen_at: r.lastSeenAt.toISOString(),
        seen_count: r.seenCount,
        replayed_at: r.replayedAt?.toISOString() ?? null,
        replay_result: r.replayResult,
        stored_records: r.storedRecords,
      })),
    };
  });

  route(app, 'devices.rawFramesReplay', async ({ req, params, body, principal, tenant }) => {
    requireSuperAdmin(principal);
    const device = await deviceOf(params.uuid, tenant);
    const outcomes = await replayRawFrames({ storage, bus, now }, device, body.ids);
    await logActivity(db, {
      companyId: tenant.companyId,
      userId: principal.user.id,
      action: 'updated',
      entity: 'device',
      entityUuid: device.deviceUuid,
      after: {
        raw_frames_replayed: outcomes.length,
        records_stored: outcomes.reduce((n, o) => n + o.stored, 0),
      },
      req,
    });
    return {
      data: outcomes.map((o) => ({
        id: o.id,
        result: o.result,
        reason: o.reason ?? null,
        records: o.records,
        stored: o.stored,
      })),
    };
  });

  route(
    app,
    'devices.frameCounters',
    async ({ params, tenant }) => {
      const device = await deviceOf(params.uuid, tenant);
      const rows = await deviceFrameCounts(db, device.deviceId);
      return {
        data: rows.map((r) => ({
          protocol: r.protocol,
          decoded: r.decoded,
          refused: r.refused,
          archived: r.archived,
          updated_at: r.updatedAt.toISOString(),
        })),
      };
    },
    { permission: 'devices.view' },
  );

  const settingView = (s: SensorSetting & { createdAt?: Date | null }) => ({
    effective_from: s.effectiveFrom.toISOString(),
    ignition_io: s.ignitionIo,
    odometer_io: s.odometerIo,
    fuel_io: s.fuelIo,
    fuel_calibration: s.fuelCalibration
      ? s.fuelCalibration.map(([a, b]) => [a, b] as [number, number])
      : null,
    created_at: s.createdAt?.toISOString() ?? null,
  });

  async function sensorsView(device: DeviceRef) {
    const history = await loadSensorSettings(db, device.deviceId);
    const t = now().getTime();
    const current = history.find((s) => s.effectiveFrom.getTime() <= t) ?? null;
    return {
      current: current ? settingView(current) : null,
      history: history.map(settingView),
      default_ignition_io: [...(DEFAULT_IGNITION[device.type] ?? [239])],
    };
  }

  route(
    app,
    'devices.sensors',
    async ({ params, tenant }) => ({ data: await sensorsView(await deviceOf(params.uuid, tenant)) }),
    { permission: 'devices.view' },
  );

  const calibrationMessage = (e: CalibrationError, ar: boolean): string => {
    switch (e.code) {
      case 'too_few_points':
        return ar
          ? 'يحتاج جدول المعايرة إلى نقطتين على الأقل'
          : 'The calibration table needs at least two points';
      case 'too_many_points':
        return ar
          ? 'جدول المعايرة يحتوي على نقاط كثيرة جدًا (200 كحد أقصى)'
          : 'The calibration table has too many points (at most 200)';
      case 'not_a_number':
        return ar
          ? `السطر ${e.line}: أدخل رقمين (القيمة، اللترات)`
          : `Line ${e.line}: enter two numbers (value, litres)`;
      case 'duplicate_raw':
        return ar ? `السطر ${e.line}: القيمة مكررة` : `Line ${e.line}: the value appears twice`;
      case 'negative_litres':
        return ar
          ? `السطر ${e.line}: لا يمكن أن تكون اللترات سالبة`
          : `Line ${e.line}: litres cannot be negative`;
    }
  };

  route(
    app,
    'devices.sensorsUpdate',
    async ({ req, params, body, principal, tenant }) => {
      const device = await deviceOf(params.uuid, tenant);
      const ar = req.locale === 'ar';
      const at = now();
      const from = body.effective_from ? new Date(body.effective_from) : at;
      if (from.getTime() > at.getTime() + 366 * 86_400_000)
        throw fieldError(
          'effective_from',
          ar ? 'يجب ألا يتجاوز تاريخ البدء سنة من الآن' : 'The start may be at most a year ahead',
        );
      let calibration = body.fuel_calibration ?? null;
      if (body.fuel_calibration_csv !== undefined) {
        const parsed = parseCalibrationCsv(body.fuel_calibration_csv);
        if ('error' in parsed) throw fieldError('fuel_calibration_csv', calibrationMessage(parsed.error, ar));
        calibration = parsed.table.map(([a, b]) => [a, b]);
      } else if (calibration) {
        const checked = validateCalibration(calibration);
        if ('error' in checked) throw fieldError('fuel_calibration', calibrationMessage(checked.error, ar));
        calibration = checked.table.map(([a, b]) => [a, b]);
      }
      const fuelIo = body.fuel_io ?? null;
      if (fuelIo !== null && !calibration)
        throw fieldError(
          'fuel_calibration',
          ar ? 'أدخل جدول معايرة لمدخل الوقود' : 'Enter a calibration table for the fuel input',
        );
      // The setting and, when it is back-dated, the repair request of the stored window from then to now
      // are one transaction: the pipeline's repair job (gateway/sensor-repair.ts) takes the request,
      // also when this process is an API node without the pipeline.
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO device_sensor_settings
           (device_id, effective_from, ignition_io, odometer_io, fuel_io, fuel_calibration, created_by)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
          [
            device.deviceId,
            from,
            body.ignition_io ?? null,
            body.odometer_io ?? null,
            fuelIo,
            calibration ? JSON.stringify(calibration) : null,
            principal.user.id,
          ],
        );
        if (from.getTime() < at.getTime()) await enqueueSensorRepair(tx, device.deviceId, from, at, at);
      });
      await logActivity(db, {
        companyId: tenant.companyId,
        userId: principal.user.id,
        action: 'updated',
        entity: 'device',
        entityUuid: device.deviceUuid,
        after: {
          sensors: {
            effective_from: from.toISOString(),
            ignition_io: body.ignition_io ?? null,
            odometer_io: body.odometer_io ?? null,
            fuel_io: fuelIo,
            fuel_calibration_points: calibration?.length ?? 0,
          },
        },
        req,
      });
      return { data: await sensorsView(device) };
    },
    { permission: 'devices.update' },
  );
}
