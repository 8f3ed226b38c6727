/**
 * Assignment and deletion integrity across the managed entities (issue requirements):
 *  - assigning something that one record only may hold (a device, a driver, a vehicle, a passenger)
 *    to a second record fails with exactly 'This {entity} is already assigned' on the field, on create
 *    and on update, in English and in Arabic;
 *  - deleting a record others depend on fails with a 409 that names both, leaves everything as it was
 *    (no dangling reference), and succeeds once the dependent is gone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('modules_integrity');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

let n = 0;
async function api(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  locale?: 'en' | 'ar',
): Promise<LightMyRequestResponse> {
  return call(h.app, {
    method,
    url,
    token: w.users.adminA.token,
    company: w.a.uuid,
    body,
    ...(locale ? { headers: { 'x-locale': locale } } : {}),
  });
}
async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const r = await api('POST', `/v1/${path}`, body);
  if (r.statusCode !== 201) throw new Error(`${path}: ${r.statusCode} ${r.body}`);
  return r.json().data.uuid as string;
}
const device = () =>
  create('devices', { imei: `35222200000${String(++n).padStart(4, '0')}`, type: 'teltonika' });
const imeiOf = async (uuid: string) => (await api('GET', `/v1/devices/${uuid}`)).json().data.imei as string;
const vehicle = (extra: Record<string, unknown> = {}) =>
  create('vehicles', { license_plate_number: `INT ${++n}`, type: 'bus', ...extra });
const driver = (extra: Record<string, unknown> = {}) =>
  create('drivers', { first_name: 'Int', last_name: `D${++n}`, ...extra });
const passenger = () =>
  create('passengers', { first_name: 'P', last_name: `${++n}`, school_uuid: w.a.schools[0]!.uuid });
const scheduled = (extra: Record<string, unknown> = {}) =>
  create('scheduled-trips', {
    name: `ST ${++n}`,
    type: 'one_way',
    departure_time: '06:00:00',
    start_date: '2026-09-01',
    ...extra,
  });

interface AssignCase {
  entity: string;
  field: string;
  /** Holds the target with a first record; returns the create path, a body taking it again, and a record to update. */
  setup: () => Promise<{ path: string; body: Record<string, unknown>; other: string }>;
}

const ASSIGN: AssignCase[] = [
  {
    entity: 'device',
    field: 'device_imei',
    setup: async () => {
      const imei = await imeiOf(await device());
      await vehicle({ device_imei: imei });
      return {
        path: 'vehicles',
        body: { license_plate_number: `X ${++n}`, type: 'car', device_imei: imei },
        other: await vehicle(),
      };
    },
  },
  {
    entity: 'device',
    field: 'gps_device_imei',
    setup: async () => {
      const imei = await imeiOf(await device());
      await vehicle({ device_imei: imei });
      return {
        path: 'vehicles',
        body: { license_plate_number: `X ${++n}`, type: 'car', gps_device_imei: imei },
        other: await vehicle(),
      };
    },
  },
  {
    entity: 'driver',
    field: 'driver_uuid',
    setup: async () => {
      const d = await driver();
      await vehicle({ driver_uuid: d });
      return {
        path: 'vehicles',
        body: { license_plate_number: `X ${++n}`, type: 'car', driver_uuid: d },
        other: await vehicle(),
      };
    },
  },
  {
    entity: 'vehicle',
    field: 'vehicle_uuid',
    setup: async () => {
      const v = await vehicle();
      await driver({ vehicle_uuid: v });
      return {
        path: 'drivers',
        body: { first_name: 'Again', last_name: `${++n}`, vehicle_uuid: v },
        other: await driver(),
      };
    },
  },
  {
    entity: 'vehicle',
    field: 'vehicle_uuid',
    setup: async () => {
      const v = await vehicle();
      await create('supervisors', { first_name: 'S', last_name: `${++n}`, vehicle_uuid: v });
      return {
        path: 'supervisors',
        body: { first_name: 'Again', last_name: `${++n}`, vehicle_uuid: v },
        other: await create('supervisors', { first_name: 'S', last_name: `${++n}` }),
      };
    },
  },
  {
    entity: 'passenger',
    field: 'passenger_uuids',
    setup: async () => {
      const p = await passenger();
      await scheduled({ passenger_uuids: [p] });
      return {
        path: 'scheduled-trips',
        body: {
          name: `ST ${++n}`,
          type: 'one_way',
          departure_time: '06:00:00',
          start_date: '2026-09-01',
          passenger_uuids: [p],
        },
        other: await scheduled(),
      };
    },
  },
];

const AR_ASSIGNED: Record<string, string> = {
  device: 'هذا الجهاز مُعيَّن بالفعل',
  driver: 'هذا السائق مُعيَّن بالفعل',
  vehicle: 'هذه المركبة مُعيَّنة بالفعل',
  passenger: 'هذا الراكب مُعيَّن بالفعل',
};

describe('already assigned', () => {
  it.each(ASSIGN.map((c) => [`${c.entity} via ${c.field}`, c] as const))('%s', async (_label, c) => {
    const { path, body, other } = await c.setup();
    const before = await api('GET', `/v1/${path}?limit=500`);
    // Create.
    const created = await api('POST', `/v1/${path}`, body);
    expect(created.statusCode, created.body).toBe(422);
    expect(created.json().errors[c.field]).toEqual([`This ${c.entity} is already assigned`]);
    expect(typeof created.json().message).toBe('string');
    // Update of another record.
    const view = (await api('GET', `/v1/${path}/${other}`)).json().data as Record<string, unknown>;
    const updated = await api('PUT', `/v1/${path}/${other}`, { ...view, [c.field]: body[c.field] });
    expect(updated.statusCode, updated.body).toBe(422);
    expect(updated.json().errors[c.field]).toEqual([`This ${c.entity} is already assigned`]);
    // Arabic: the same rule in the Arabic sentence, with the Arabic entity word and its gender.
    const ar = await api('POST', `/v1/${path}`, body, 'ar');
    expect(ar.statusCode).toBe(422);
    expect(ar.json().errors[c.field]).toEqual([AR_ASSIGNED[c.entity]]);
    // Nothing was written.
    expect((await api('GET', `/v1/${path}?limit=500`)).json().total).toBe(before.json().total);
  });
});

interface RaceCase {
  label: string;
  /** Makes the free target; returns two requests that both claim it, the field each names, and a
   * SQL count of its holders ($1 = the target's uuid). */
  setup: () => Promise<{
    target: string;
    requests: [path: string, body: Record<string, unknown>, field: string][];
    entity: string;
    holders: string;
  }>;
}

const RACE: RaceCase[] = [
  {
    label: 'device on two new vehicles (device_imei)',
    setup: async () => {
      const imei = await imeiOf(await device());
      return {
        target: imei,
        entity: 'device',
        requests: [
          ['vehicles', { license_plate_number: `R ${++n}`, type: 'car', device_imei: imei }, 'device_imei'],
          ['vehicles', { license_plate_number: `R ${++n}`, type: 'car', device_imei: imei }, 'device_imei'],
        ],
        holders: 'SELECT count(*)::int AS n FROM vehicles WHERE device_imei = $1 OR gps_device_imei = $1',
      };
    },
  },
  {
    label: 'device as device_imei of one vehicle and gps_device_imei of another',
    setup: async () => {
      const imei = await imeiOf(await device());
      return {
        target: imei,
        entity: 'device',
        requests: [
          ['vehicles', { license_plate_number: `R ${++n}`, type: 'car', device_imei: imei }, 'device_imei'],
          [
            'vehicles',
            { license_plate_number: `R ${++n}`, type: 'car', gps_device_imei: imei },
            'gps_device_imei',
          ],
        ],
        holders: 'SELECT count(*)::int AS n FROM vehicles WHERE device_imei = $1 OR gps_device_imei = $1',
      };
    },
  },
  {
    label: 'driver on two new vehicles (driver_uuid)',
    setup: async () => {
      const d = await driver();
      return {
        target: d,
        entity: 'driver',
        requests: [
          ['vehicles', { license_plate_number: `R ${++n}`, type: 'car', driver_uuid: d }, 'driver_uuid'],
          ['vehicles', { license_plate_number: `R ${++n}`, type: 'car', driver_uuid: d }, 'driver_uuid'],
        ],
        holders:
          'SELECT count(*)::int AS n FROM vehicles v JOIN drivers d ON d.id = v.driver_id WHERE d.uuid = $1',
      };
    },
  },
  {
    label: 'vehicle for two new drivers (vehicle_uuid)',
    setup: async () => {
      const v = await vehicle();
      return {
        target: v,
        entity: 'vehicle',
        requests: [
          ['drivers', { first_name: 'R', last_name: `${++n}`, vehicle_uuid: v }, 'vehicle_uuid'],
          ['drivers', { first_name: 'R', last_name: `${++n}`, vehicle_uuid: v }, 'vehicle_uuid'],
        ],
        // The vehicle names one driver (its driver_id); the driver count below shows the loser wrote nothing.
        holders: 'SELECT count(*)::int AS n FROM vehicles WHERE uuid = $1 AND driver_id IS NOT NULL',
      };
    },
  },
  {
    label: 'vehicle for two new supervisors (vehicle_uuid)',
    setup: async () => {
      const v = await vehicle();
      return {
        target: v,
        entity: 'vehicle',
        requests: [
          ['supervisors', { first_name: 'R', last_name: `${++n}`, vehicle_uuid: v }, 'vehicle_uuid'],
          ['supervisors', { first_name: 'R', last_name: `${++n}`, vehicle_uuid: v }, 'vehicle_uuid'],
        ],
        holders:
          'SELECT count(*)::int AS n FROM supervisors s JOIN vehicles v ON v.id = s.vehicle_id WHERE v.uuid = $1',
      };
    },
  },
  {
    label: 'passenger on two new scheduled trips (passenger_uuids)',
    setup: async () => {
      const p = await passenger();
      const body = () => ({
        name: `ST ${++n}`,
        type: 'one_way',
        departure_time: '06:00:00',
        start_date: '2026-09-01',
        passenger_uuids: [p],
      });
      return {
        target: p,
        entity: 'passenger',
        requests: [
          ['scheduled-trips', body(), 'passenger_uuids'],
          ['scheduled-trips', body(), 'passenger_uuids'],
        ],
        holders:
          'SELECT count(*)::int AS n FROM scheduled_trip_passengers j JOIN passengers p ON p.id = j.passenger_id WHERE p.uuid = $1',
      };
    },
  },
];

describe('two requests assigning the same thing at the same moment', () => {
  it.each(RACE.map((c) => [c.label, c] as const))(
    '%s: one wins, the other is told it is taken',
    async (_l, c) => {
      const { target, requests, entity, holders } = await c.setup();
      const before = await Promise.all(
        requests.map(async ([path]) => (await api('GET', `/v1/${path}?limit=1`)).json().total as number),
      );
      const answers = await Promise.all(requests.map(([path, body]) => api('POST', `/v1/${path}`, body)));
      const codes = answers.map((a) => a.statusCode);
      expect([...codes].sort(), answers.map((a) => a.body).join('\n')).toEqual([201, 422]);
      const loser = codes.indexOf(422);
      expect(answers[loser]!.json().errors).toEqual({
        [requests[loser]![2]]: [`This ${entity} is already assigned`],
      });
      expect(typeof answers[loser]!.json().message).toBe('string');
      // Exactly one holder; the loser wrote nothing.
      const [h1] = await h.storage.db.query<{ n: number }>(holders, [target]);
      expect(h1!.n).toBe(1);
      const after = (await api('GET', `/v1/${requests[0]![0]}?limit=1`)).json().total as number;
      expect(after).toBe(before[0]! + 1);
    },
  );
});

/** The Arabic sentences name the entity and the field in Arabic (src/http/i18n.ts AR_NOUNS). */
it('Arabic messages name the entity in Arabic', async () => {
  const imei = await imeiOf(await device());
  await vehicle({ device_imei: imei });
  const r = await api(
    'POST',
    '/v1/vehicles',
    { license_plate_number: 'AR 1', type: 'car', device_imei: imei },
    'ar',
  );
  expect(r.json().errors.device_imei[0]).not.toMatch(/[A-Za-z]/);
  const missing = await api('POST', '/v1/vehicles', { type: 'car' }, 'ar');
  expect(missing.statusCode).toBe(422);
  expect(missing.json().errors.license_plate_number).toEqual(['رقم لوحة المركبة مطلوب']);
  const unknown = await api('GET', `/v1/vehicles/${crypto.randomUUID()}`, undefined, 'ar');
  expect(unknown.json().message).toBe('المركبة غير موجودة.');
});

interface DependCase {
  /** 'device <- vehicles': what is deleted and what depends on it. */
  label: string;
  entity: string;
  dependents: string;
  /** The exact Arabic message. */
  ar: string;
  /** Makes the record and one dependent; returns their paths. */
  setup: () => Promise<{ target: string; dependent: string }>;
}

const trip = (extra: Record<string, unknown> = {}) =>
  create('trips', { name: `T ${++n}`, start_at: '2026-11-20T06:00:00Z', ...extra });
const supervisor = (extra: Record<string, unknown> = {}) =>
  create('supervisors', { first_name: 'S', last_name: `${++n}`, ...extra });

const DEPEND: DependCase[] = [
  {
    label: 'device <- vehicle',
    entity: 'device',
    dependents: 'vehicles',
    ar: 'لا يمكن حذف هذا الجهاز لارتباط المركبات به.',
    setup: async () => {
      const d = await device();
      return {
        target: `devices/${d}`,
        dependent: `vehicles/${await vehicle({ device_imei: await imeiOf(d) })}`,
      };
    },
  },
  {
    label: 'driver <- vehicle',
    entity: 'driver',
    dependents: 'vehicles',
    ar: 'لا يمكن حذف هذا السائق لارتباط المركبات به.',
    setup: async () => {
      const d = await driver();
      return { target: `drivers/${d}`, dependent: `vehicles/${await vehicle({ driver_uuid: d })}` };
    },
  },
  {
    label: 'driver <- trip',
    entity: 'driver',
    dependents: 'trips',
    ar: 'لا يمكن حذف هذا السائق لارتباط الرحلات به.',
    setup: async () => {
      const d = await driver();
      return { target: `drivers/${d}`, dependent: `trips/${await trip({ driver_uuid: d })}` };
    },
  },
  {
    label: 'vehicle <- supervisor',
    entity: 'vehicle',
    dependents: 'supervisors',
    ar: 'لا يمكن حذف هذه المركبة لارتباط المشرفين بها.',
    setup: async () => {
      const v = await vehicle();
      return { target: `vehicles/${v}`, dependent: `supervisors/${await supervisor({ vehicle_uuid: v })}` };
    },
  },
  {
    label: 'vehicle <- scheduled trip',
    entity: 'vehicle',
    dependents: 'scheduled trips',
    ar: 'لا يمكن حذف هذه المركبة لارتباط الرحلات المجدولة بها.',
    setup: async () => {
      const v = await vehicle();
      return {
        target: `vehicles/${v}`,
        dependent: `scheduled-trips/${await scheduled({ vehicle_uuid: v })}`,
      };
    },
  },
  {
    label: 'vehicle <- trips-app record',
    entity: 'vehicle',
    dependents: 'trips app records',
    ar: 'لا يمكن حذف هذه المركبة لارتباط سجلات تطبيق الرحلات بها.',
    setup: async () => {
      const v = await vehicle();
      const ta = await create('trips-app', { driver_uuid: await driver(), vehicle_uuid: v });
      return { target: `vehicles/${v}`, dependent: `trips-app/${ta}` };
    },
  },
  {
    label: 'supervisor <- trip',
    entity: 'supervisor',
    dependents: 'trips',
    ar: 'لا يمكن حذف هذا المشرف لارتباط الرحلات به.',
    setup: async () => {
      const s = await supervisor();
      return { target: `supervisors/${s}`, dependent: `trips/${await trip({ supervisor_uuid: s })}` };
    },
  },
  {
    label: 'scheduled trip <- trip',
    entity: 'scheduled trip',
    dependents: 'trips',
    ar: 'لا يمكن حذف هذه الرحلة المجدولة لارتباط الرحلات بها.',
    setup: async () => {
      const st = await scheduled();
      return {
        target: `scheduled-trips/${st}`,
        dependent: `trips/${await trip({ scheduled_trip_uuid: st })}`,
      };
    },
  },
  {
    label: 'trip <- trips-app record',
    entity: 'trip',
    dependents: 'trips app records',
    ar: 'لا يمكن حذف هذه الرحلة لارتباط سجلات تطبيق الرحلات بها.',
    setup: async () => {
      const t = await trip();
      const ta = await create('trips-app', {
        driver_uuid: await driver(),
        vehicle_uuid: await vehicle(),
        trip_uuid: t,
      });
      return { target: `trips/${t}`, dependent: `trips-app/${ta}` };
    },
  },
  {
    label: 'passenger <- scheduled trip',
    entity: 'passenger',
    dependents: 'scheduled trips',
    ar: 'لا يمكن حذف هذا الراكب لارتباط الرحلات المجدولة به.',
    setup: async () => {
      const p = await passenger();
      return {
        target: `passengers/${p}`,
        dependent: `scheduled-trips/${await scheduled({ passenger_uuids: [p] })}`,
      };
    },
  },
  {
    label: 'school <- passenger',
    entity: 'school',
    dependents: 'passengers',
    ar: 'لا يمكن حذف هذه المدرسة لارتباط الركاب بها.',
    setup: async () => {
      const s = await create('schools', { name: `Sch ${++n}`, type: 'public', education_level: 'primary' });
      const p = await create('passengers', { first_name: 'P', last_name: `${++n}`, school_uuid: s });
      return { target: `schools/${s}`, dependent: `passengers/${p}` };
    },
  },
  {
    label: 'branch <- school',
    entity: 'branch',
    dependents: 'schools',
    ar: 'لا يمكن حذف هذا الفرع لارتباط المدارس به.',
    setup: async () => {
      const b = await create('branches', { name: `Br ${++n}` });
      const s = await create('schools', {
        name: `Sch ${++n}`,
        type: 'public',
        education_level: 'primary',
        branch_uuid: b,
      });
      return { target: `branches/${b}`, dependent: `schools/${s}` };
    },
  },
  {
    label: 'station <- branch',
    entity: 'station',
    dependents: 'branches',
    ar: 'لا يمكن حذف هذه المحطة لارتباط الفروع بها.',
    setup: async () => {
      const st = await create('stations', { name: `St ${++n}` });
      return {
        target: `stations/${st}`,
        dependent: `branches/${await create('branches', { name: `Br ${++n}`, station_uuid: st })}`,
      };
    },
  },
];

describe('deleting a record others depend on', () => {
  it.each(DEPEND.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const { target, dependent } = await c.setup();
    const before = (await api('GET', `/v1/${dependent}`)).body;
    const del = await api('DELETE', `/v1/${target}`);
    expect(del.statusCode, del.body).toBe(409);
    expect(del.json().message).toBe(
      `This ${c.entity} cannot be deleted because ${c.dependents} still depend on it.`,
    );
    const ar = await api('DELETE', `/v1/${target}`, undefined, 'ar');
    expect(ar.statusCode).toBe(409);
    expect(ar.json().message).toBe(c.ar);
    // Both records are intact: no dangling reference.
    expect((await api('GET', `/v1/${target}`)).statusCode).toBe(200);
    expect((await api('GET', `/v1/${dependent}`)).body).toBe(before);
    // Once the dependent is gone, the record can be deleted.
    expect((await api('DELETE', `/v1/${dependent}`)).statusCode).toBe(200);
    const again = await api('DELETE', `/v1/${target}`);
    expect(again.statusCode, again.body).toBe(200);
    expect((await api('GET', `/v1/${target}`)).statusCode).toBe(404);
  });
});

describe('links that follow a deletion', () => {
  it("deleting a guardian removes it from its passengers' guardian list (no dangling uuid)", async () => {
    const g = await create('guardians', {
      first_name: 'G',
      last_name: `${++n}`,
      phone: '+971500000002',
      relationship: 'mother',
    });
    const p = await create('passengers', {
      first_name: 'P',
      last_name: `${++n}`,
      school_uuid: w.a.schools[0]!.uuid,
      guardian_uuids: [g],
    });
    expect((await api('GET', `/v1/passengers/${p}`)).json().data.guardian_uuids).toEqual([g]);
    expect((await api('DELETE', `/v1/guardians/${g}`)).statusCode).toBe(200);
    expect((await api('GET', `/v1/passengers/${p}`)).json().data.guardian_uuids).toEqual([]);
  });

  /**
   * A notification rule's vehicle, geofence and recipient uuids are checked on write and never dangle:
   * deleting a vehicle or geofence a rule names is refused (an empty list would widen the rule to every
   * vehicle), a user removed from the company is taken out of the recipients.
   */
  it('deleting a vehicle named by a notification rule leaves no dangling uuid in the rule', async () => {
    const v = await vehicle();
    const rule = await create('notification-rules', {
      name: `R ${++n}`,
      type: 'overspeed',
      speed_limit: 100,
      vehicle_uuids: [v],
    });
    const del = await api('DELETE', `/v1/vehicles/${v}`);
    const view = (await api('GET', `/v1/notification-rules/${rule}`)).json().data;
    expect(del.statusCode === 409 || !view.vehicle_uuids.includes(v)).toBe(true);
  });

  it('a vehicle or geofence a rule names cannot be deleted (409 naming the rules) until the rule lets go', async () => {
    const v = await vehicle();
    const g = await create('geofences', {
      name: `G ${++n}`,
      type: 'custom',
      geometry: { shape: 'circle', center: { latitude: 25.2, longitude: 55.3 }, radius: 100 },
    });
    const rule = await create('notification-rules', {
      name: `R ${++n}`,
      type: 'geofence_entry',
      vehicle_uuids: [v],
      geofence_uuids: [g],
    });
    const dv = await api('DELETE', `/v1/vehicles/${v}`);
    expect(dv.statusCode).toBe(409);
    expect(dv.json().message).toBe(
      'This vehicle cannot be deleted because notification rules still depend on it.',
    );
    const dg = await api('DELETE', `/v1/geofences/${g}`, undefined, 'ar');
    expect(dg.statusCode).toBe(409);
    expect(dg.json().message).toBe('لا يمكن حذف هذا السياج الجغرافي لارتباط قواعد الإشعارات به.');
    const view = (await api('GET', `/v1/notification-rules/${rule}`)).json().data;
    expect(view.vehicle_uuids).toEqual([v]);
    expect(view.geofence_uuids).toEqual([g]);
    const g2 = await create('geofences', {
      name: `G ${++n}`,
      type: 'custom',
      geometry: { shape: 'circle', center: { latitude: 25.3, longitude: 55.4 }, radius: 100 },
    });
    const put = await api('PUT', `/v1/notification-rules/${rule}`, {
      ...view,
      vehicle_uuids: [],
      geofence_uuids: [g2],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await api('DELETE', `/v1/vehicles/${v}`)).statusCode).toBe(200);
    expect((await api('DELETE', `/v1/geofences/${g}`)).statusCode).toBe(200);
  });

  it('removing a user from the company takes it out of the rules it receives', async () => {
    const other = w.users.branchA2.uuid;
    const rule = await create('notification-rules', {
      name: `R ${++n}`,
      type: 'overspeed',
      speed_limit: 90,
      recipient_user_uuids: [other, w.users.adminA.uuid],
    });
    const del = await api('DELETE', `/v1/users/${other}`);
    expect(del.statusCode, del.body).toBe(200);
    const view = (await api('GET', `/v1/notification-rules/${rule}`)).json().data;
    expect(view.recipient_user_uuids).toEqual([w.users.adminA.uuid]);
  });
});

describe('notification rule references', () => {
  const rule = (extra: Record<string, unknown>) => ({
    name: `R ${++n}`,
    type: 'overspeed',
    speed_limit: 90,
    ...extra,
  });
  it.each([
    ['vehicle_uuids', 'Vehicle', 'يرجى إدخال مركبة صالحة'],
    ['geofence_uuids', 'Geofence', 'يرجى إدخال سياج جغرافي صالح'],
    ['recipient_user_uuids', 'Recipient', 'يرجى إدخال مستلم صالح'],
  ])('%s: a foreign or random uuid is a 422 on the field (create and update)', async (field, label, ar) => {
    const { insertMinimal } = await import('../security-tests/fixtures');
    const foreign =
      field === 'recipient_user_uuids'
        ? w.users.adminB.uuid
        : (
            await insertMinimal(h.storage.db, field === 'vehicle_uuids' ? 'vehicles' : 'geofences', {
              company_id: w.b.id,
            })
          ).uuid;
    const ok = await create('notification-rules', rule({}));
    for (const bad of [crypto.randomUUID(), String(foreign)]) {
      const c = await api('POST', '/v1/notification-rules', rule({ [field]: [bad] }));
      expect(c.statusCode, c.body).toBe(422);
      expect(c.json().errors[field]).toEqual([`Please enter a valid ${label}`]);
      const a = await api('POST', '/v1/notification-rules', rule({ [field]: [bad] }), 'ar');
      expect(a.json().errors[field]).toEqual([ar]);
      const view = (await api('GET', `/v1/notification-rules/${ok}`)).json().data;
      const u = await api('PUT', `/v1/notification-rules/${ok}`, { ...view, [field]: [bad] });
      expect(u.statusCode, u.body).toBe(422);
      expect(u.json().errors[field]).toEqual([`Please enter a valid ${label}`]);
      expect((await api('GET', `/v1/notification-rules/${ok}`)).json().data[field]).toEqual([]);
    }
  });
});

/**
 * Records a scoped admin creates carry the station / branch / school (ON DELETE RESTRICT). The delete of
 * a station, branch or school checks every scoped table first (src/entities/defs/organisation.ts
 * `scopedDependents`) and answers the 409 naming them; the database's own refusal (23503, or 23001
 * restrict_violation on PostgreSQL 17 and PGlite) is a 409 too (src/app.ts), never a 500.
 */
it('deleting a station, branch or school that scoped records still name: a clear 409, nothing dangles', async () => {
  const { insertMinimal } = await import('../security-tests/fixtures');
  const db = h.storage.db;
  const scoped = [
    'devices',
    'drivers',
    'vehicles',
    'guardians',
    'passengers',
    'supervisors',
    'geofences',
    'trips',
    'scheduled_trips',
    'trips_app',
  ];
  const failures: string[] = [];
  for (const [path, table, column] of [
    ['stations', 'sub_companies', 'sub_company_id'],
    ['branches', 'branches', 'branch_id'],
    ['schools', 'schools', 'school_id'],
  ] as const) {
    for (const dep of scoped) {
      const body =
        path === 'stations'
          ? { name: `St ${++n}` }
          : path === 'branches'
            ? { name: `Br ${++n}` }
            : { name: `Sch ${++n}`, type: 'public', education_level: 'primary' };
      const target = await create(path, body);
      const [t] = await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE uuid = $1`, [target]);
      const values: Record<string, unknown> = { company_id: w.a.id, [column]: t!.id };
      if (dep === 'passengers' && column !== 'school_id') values.school_id = w.a.schools[0]!.id;
      if (dep === 'devices') values.imei = `35333300000${String(++n).padStart(4, '0')}`;
      const row = await insertMinimal(db, dep, values);
      const del = await api('DELETE', `/v1/${path}/${target}`);
      expect(del.statusCode, `${path} <- ${dep}`).toBeGreaterThanOrEqual(400);
      if (
        del.statusCode !== 409 ||
        !/cannot be deleted because .+ still depend on it\.$/.test(del.json().message)
      )
        failures.push(`${path} <- ${dep}`);
      // Whatever the answer, nothing may dangle: the record and its dependent's scope are intact.
      expect((await api('GET', `/v1/${path}/${target}`)).statusCode).toBe(200);
      const [still] = await db.query<Record<string, unknown>>(`SELECT ${column} FROM ${dep} WHERE id = $1`, [
        row.id,
      ]);
      expect(still![column]).toBe(t!.id);
    }
  }
  expect(failures).toEqual([]);
});
