import type { FastifyInstance } from 'fastify';
import { vehicleTypes } from '@fleet/api-client';
import { route } from '../http/route';
import { scopeSql } from '../entities/scope';

/**
 * Configuration lists of the contract: devices, vehicle types, plate states.
 * (One endpoint group of the records; modules/records.ts registers them all.)
 */
export function registerConfigurationRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;

  route(
    app,
    'configurations.devices',
    async ({ tenant }) => {
      const params: unknown[] = [];
      const rows = await db.query<{
        uuid: string;
        imei: string;
        type: string;
        make: string | null;
        model: string | null;
        assigned: boolean;
      }>(
        `SELECT r.uuid, r.imei, r.type, r.make, r.model,
           EXISTS (SELECT 1 FROM vehicles v WHERE v.device_imei = r.imei OR v.gps_device_imei = r.imei) AS assigned
         FROM devices r WHERE ${scopeSql('devices', 'r', tenant, params)} ORDER BY r.imei`,
        params,
      );
      return {
        data: {
          data: rows.map((r) => ({
            value: r.imei,
            label: [r.imei, r.make, r.model].filter(Boolean).join(' · '),
            uuid: r.uuid,
            imei: r.imei,
            type: r.type as 'teltonika',
            assigned: r.assigned,
          })),
        },
      };
    },
    { permission: 'devices.view' },
  );
  const typeLabels: Record<string, [string, string]> = {
    bus: ['Bus', 'حافلة'],
    car: ['Car', 'سيارة'],
    truck: ['Truck', 'شاحنة'],
    motorcycle: ['Motorcycle', 'دراجة نارية'],
    'motor-bike': ['Motor-bike', 'دراجة'],
  };
  route(app, 'configurations.vehicleTypes', async () => ({
    data: {
      data: vehicleTypes.map((v) => ({
        value: v,
        label: typeLabels[v]?.[0] ?? v,
        label_ar: typeLabels[v]?.[1] ?? null,
      })),
    },
  }));
  route(app, 'configurations.vehicleStates', async ({ params }) => ({
    data: {
      data: (PLATE_STATES[params.country_code.toUpperCase()] ?? []).map(([value, label, label_ar]) => ({
        value,
        label,
        label_ar,
      })),
    },
  }));
}

/** Plate issuing states per country (value, English, Arabic). */
const PLATE_STATES: Record<string, [string, string, string][]> = {
  AE: [
    ['AD', 'Abu Dhabi', 'أبوظبي'],
    ['DXB', 'Dubai', 'دبي'],
    ['SHJ', 'Sharjah', 'الشارقة'],
    ['AJ', 'Ajman', 'عجمان'],
    ['UAQ', 'Umm Al Quwain', 'أم القيوين'],
    ['RAK', 'Ras Al Khaimah', 'رأس الخيمة'],
    ['FUJ', 'Fujairah', 'الفجيرة'],
  ],
  SA: [
    ['RUH', 'Riyadh', 'الرياض'],
    ['MKK', 'Makkah', 'مكة المكرمة'],
    ['MED', 'Madinah', 'المدينة المنورة'],
    ['EP', 'Eastern Province', 'المنطقة الشرقية'],
    ['QAS', 'Qassim', 'القصيم'],
    ['ASR', 'Asir', 'عسير'],
  ],
  OM: [
    ['MCT', 'Muscat', 'مسقط'],
    ['DHO', 'Dhofar', 'ظفار'],
    ['BAT', 'Al Batinah', 'الباطنة'],
  ],
  QA: [['QA', 'Qatar', 'قطر']],
  KW: [['KW', 'Kuwait', 'الكويت']],
  BH: [['BH', 'Bahrain', 'البحرين']],
};
