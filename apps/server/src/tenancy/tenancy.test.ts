/**
 * The tenancy matrix: for every managed entity, a record of another company (company B) and a
 * record of another branch / station / school of the same company (made by branch A2's admin)
 * can be neither read, listed, changed, status-changed, deleted nor told apart from a random uuid.
 * Positive controls (the owners see their records) keep the matrix from passing vacuously.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type Actor, type World } from '../../test/fixtures';

let h: Harness;
let w: World;

interface Made {
  uuid: string;
  body: Record<string, unknown>;
}

/** Entities: path, and a body builder given helper records of the same owner. */
const ENTITIES: {
  path: string;
  status: string;
  body: (n: number, deps: Record<string, string>) => Record<string, unknown>;
  /** branch admins cannot create these; the matrix uses fixture records instead. */
  fixture?: (w: World) => { a2: string; b: string };
}[] = [
  { path: 'vehicles', status: 'inactive', body: (n) => ({ license_plate_number: `M ${n}`, type: 'car' }) },
  { path: 'drivers', status: 'inactive', body: (n) => ({ first_name: 'D', last_name: `${n}` }) },
  {
    path: 'devices',
    status: 'inactive',
    body: (n) => ({ imei: `35000000000${String(n).padStart(4, '0')}`, type: 'teltonika' }),
  },
  {
    path: 'geofences',
    status: 'inactive',
    body: (n) => ({
      name: `G${n}`,
      geometry: { shape: 'circle', center: { latitude: 25, longitude: 55 }, radius: 100 },
    }),
  },
  {
    path: 'guardians',
    status: 'inactive',
    body: (n) => ({
      first_name: 'G',
      last_name: `${n}`,
      phone: '+97150000000' + (n % 10),
      relationship: 'father',
    }),
  },
  {
    path: 'passengers',
    status: 'inactive',
    body: (n, d) => ({ first_name: 'P', last_name: `${n}`, school_uuid: d.school }),
  },
  { path: 'supervisors', status: 'inactive', body: (n) => ({ first_name: 'S', last_name: `${n}` }) },
  { path: 'trips', status: 'cancelled', body: (n) => ({ name: `T${n}`, start_at: '2026-11-20T06:00:00Z' }) },
  {
    path: 'scheduled-trips',
    status: 'inactive',
    body: (n) => ({ name: `ST${n}`, type: 'one_way', departure_time: '06:00:00', start_date: '2026-09-01' }),
  },
  {
    path: 'trips-app',
    status: 'cancelled',
    body: (_n, d) => ({ driver_uuid: d.driver, vehicle_uuid: d.vehicle }),
  },
  {
    path: 'schools',
    status: 'inactive',
    body: (n) => ({ name: `Sch${n}`, type: 'public', education_level: 'primary' }),
  },
  {
    path: 'branches',
    status: 'inactive',
    body: (n) => ({ name: `Br${n}` }),
    fixture: (w) => ({ a2: w.a.branches[1]!.uuid, b: w.b.branches[0]!.uuid }),
  },
  {
    path: 'stations',
    status: 'inactive',
    body: (n) => ({ name: `St${n}` }),
    fixture: (w) => ({ a2: w.a.stations[1]!.uuid, b: w.b.stations[0]!.uuid }),
  },
  {
    path: 'users',
    status: 'inactive',
    body: (n) => ({ name: `U${n}`, email: `u${n}@fleet.test`, user_type: 'admin' }),
    fixture: (w) => ({ a2: w.users.branchA2.uuid, b: w.users.adminB.uuid }),
  },
  {
    path: 'notification-rules',
    status: 'inactive',
    body: (n) => ({ name: `R${n}`, type: 'overspeed', speed_limit: 120 }),
  },
];

let counter = 0;
async function make(
  actor: Actor,
  company: string,
  path: string,
  body: Record<string, unknown>,
): Promise<Made> {
  const r = await call(h.app, { method: 'POST', url: `/v1/${path}`, token: actor.token, company, body });
  if (r.statusCode !== 201) throw new Error(`${path} create failed ${r.statusCode} ${r.body}`);
  return { uuid: r.json().data.uuid as string, body };
}

const records: Record<string, { a2: Made | null; b: Made; a2uuid: string; buuid: string }> = {};

beforeAll(async () => {
  h = await createHarness('tenancy');
  w = await buildWorld(h.storage.db);
  const deps = {
    a2: {
      school: w.a.schools[1]!.uuid,
      driver: (await make(w.users.branchA2, w.a.uuid, 'drivers', { first_name: 'Dep', last_name: 'A2' }))
        .uuid,
      vehicle: (
        await make(w.users.branchA2, w.a.uuid, 'vehicles', { license_plate_number: 'DEP A2', type: 'bus' })
      ).uuid,
    },
    b: {
      school: w.b.schools[0]!.uuid,
      driver: (await make(w.users.adminB, w.b.uuid, 'drivers', { first_name: 'Dep', last_name: 'B' })).uuid,
      vehicle: (
        await make(w.users.adminB, w.b.uuid, 'vehicles', { license_plate_number: 'DEP B', type: 'bus' })
      ).uuid,
    },
  };
  for (const e of ENTITIES) {
    if (e.fixture) {
      const f = e.fixture(w);
      records[e.path] = { a2: null, b: { uuid: f.b, body: {} }, a2uuid: f.a2, buuid: f.b };
      continue;
    }
    const canA2 = e.path !== 'notification-rules';
    const a2 = canA2 ? await make(w.users.branchA2, w.a.uuid, e.path, e.body(++counter, deps.a2)) : null;
    const b = await make(w.users.adminB, w.b.uuid, e.path, e.body(++counter, deps.b));
    records[e.path] = { a2, b, a2uuid: a2?.uuid ?? '', buuid: b.uuid };
  }
}, 120_000);
afterAll(() => h.close());

type Probe = { status: number; body: string };
async function probe(
  actor: Actor,
  company: string,
  path: string,
  uuid: string,
  body: Record<string, unknown>,
  status: string,
) {
  const out: Record<string, Probe> = {};
  const ops = [
    ['show', 'GET', `/v1/${path}/${uuid}`, undefined],
    ['update', 'PUT', `/v1/${path}/${uuid}`, body],
    ['status', 'PATCH', `/v1/${path}/${uuid}/status`, { status }],
    ['delete', 'DELETE', `/v1/${path}/${uuid}`, undefined],
  ] as const;
  for (const [name, method, url, b] of ops) {
    const r = await call(h.app, { method, url, token: actor.token, company, body: b });
    out[name] = { status: r.statusCode, body: r.body };
  }
  return out;
}

async function listed(actor: Actor, company: string, path: string, uuid: string): Promise<boolean> {
  const r = await call(h.app, { method: 'GET', url: `/v1/${path}?limit=500`, token: actor.token, company });
  if (r.statusCode === 403) return false; // no permission to list at all
  if (r.statusCode !== 200) throw new Error(`list ${path}: ${r.statusCode} ${r.body.slice(0, 300)}`);
  return (r.json().data as { uuid: string }[]).some((x) => x.uuid === uuid);
}

describe.each(ENTITIES.map((e) => [e.path, e] as const))('tenancy: %s', (path, e) => {
  it('another company: not listed, not readable, not changeable, same answer as a random uuid', async () => {
    const rec = records[path]!;
    const body = e.body(++counter, {
      school: w.a.schools[0]!.uuid,
      driver: randomUUID(),
      vehicle: randomUUID(),
    });
    const admin = w.users.adminA;
    expect(await listed(admin, w.a.uuid, path, rec.buuid)).toBe(false);
    const foreign = await probe(admin, w.a.uuid, path, rec.buuid, body, e.status);
    const random = await probe(admin, w.a.uuid, path, randomUUID(), body, e.status);
    for (const op of ['show', 'status', 'delete'] as const) {
      expect([403, 404], `${op} ${foreign[op]!.body}`).toContain(foreign[op]!.status);
      expect(foreign[op]).toEqual(random[op]);
    }
    expect([403, 404, 422]).toContain(foreign.update!.status);
    expect(foreign.update!.status).toBe(random.update!.status);
    // Asking for company B by header is refused outright.
    const r = await call(h.app, { method: 'GET', url: `/v1/${path}`, token: admin.token, company: w.b.uuid });
    expect(r.statusCode).toBe(403);
    // The owner still sees it unchanged (positive control).
    const owner = await call(h.app, {
      method: 'GET',
      url: `/v1/${path}/${rec.buuid}`,
      token: w.users.adminB.token,
      company: w.b.uuid,
    });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().data.status).not.toBe(e.status);
  });

  it.each(['branchA1', 'stationA1', 'schoolA1'] as const)(
    'another scope (%s): not listed, not readable, not changeable',
    async (who) => {
      const rec = records[path]!;
      if (!rec.a2uuid) return; // company-wide records (notification rules) have no branch
      const actor = w.users[who];
      const body = e.body(++counter, {
        school: w.a.schools[0]!.uuid,
        driver: randomUUID(),
        vehicle: randomUUID(),
      });
      expect(await listed(actor, w.a.uuid, path, rec.a2uuid)).toBe(false);
      const res = await probe(actor, w.a.uuid, path, rec.a2uuid, body, e.status);
      for (const op of ['show', 'update', 'status', 'delete'] as const) {
        expect([403, 404, 422], `${who} ${op} ${res[op]!.body}`).toContain(res[op]!.status);
      }
      // Positive control: the company admin sees the branch-2 record.
      expect(await listed(w.users.adminA, w.a.uuid, path, rec.a2uuid)).toBe(true);
    },
  );
});

describe('tenancy: other endpoints', () => {
  it('permissions: an admin whose list is empty is refused', async () => {
    const r = await call(h.app, {
      method: 'GET',
      url: '/v1/vehicles',
      token: w.users.noPerms.token,
      company: w.a.uuid,
    });
    expect(r.statusCode).toBe(403);
  });

  it('company-wide notification rules: scoped admins are refused writes with 403, never a 404', async () => {
    for (const who of ['stationA1', 'branchA1', 'schoolA1'] as const) {
      const r = await call(h.app, {
        method: 'POST',
        url: '/v1/notification-rules',
        token: w.users[who].token,
        company: w.a.uuid,
        body: { name: `Scoped ${who}`, type: 'overspeed', speed_limit: 100 },
      });
      expect(r.statusCode, `${who}: ${r.body}`).toBe(403);
    }
    const admin = await call(h.app, {
      method: 'POST',
      url: '/v1/notification-rules',
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { name: 'Company rule', type: 'overspeed', speed_limit: 100 },
    });
    expect(admin.statusCode).toBe(201);
    const uuid = admin.json().data.uuid as string;
    for (const [method, url, body] of [
      ['DELETE', `/v1/notification-rules/${uuid}`, undefined],
      ['PATCH', `/v1/notification-rules/${uuid}/status`, { status: 'inactive' }],
    ] as const) {
      const r = await call(h.app, { method, url, token: w.users.branchA1.token, company: w.a.uuid, body });
      expect(r.statusCode, `${method} ${r.body}`).toBe(403);
    }
  });

  it('locations, live list and events of another company or scope are invisible', async () => {
    const bVehicle = records.vehicles!.b.uuid;
    const loc = await call(h.app, {
      method: 'GET',
      url: `/v1/device-locations/vehicle/locations?vehicle_uuid=${bVehicle}`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(loc.statusCode).toBe(404);
    const a2Vehicle = records.vehicles!.a2uuid;
    const scoped = await call(h.app, {
      method: 'GET',
      url: `/v1/device-locations/vehicle/locations?vehicle_uuid=${a2Vehicle}`,
      token: w.users.branchA1.token,
      company: w.a.uuid,
    });
    expect(scoped.statusCode).toBe(404);
    const live = await call(h.app, {
      method: 'GET',
      url: '/v1/vehicles/live',
      token: w.users.branchA1.token,
      company: w.a.uuid,
    });
    expect(live.statusCode).toBe(200);
    expect(live.json().data.map((v: { uuid: string }) => v.uuid)).not.toContain(a2Vehicle);
    const liveA2 = await call(h.app, {
      method: 'GET',
      url: '/v1/vehicles/live',
      token: w.users.branchA2.token,
      company: w.a.uuid,
    });
    expect(liveA2.json().data.map((v: { uuid: string }) => v.uuid)).toContain(a2Vehicle);
    const unknown = await call(h.app, {
      method: 'GET',
      url: '/v1/devices/unknown',
      token: w.users.branchA1.token,
      company: w.a.uuid,
    });
    expect(unknown.statusCode).toBe(403);
    const activity = await call(h.app, {
      method: 'GET',
      url: '/v1/activity-log?limit=500',
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    const subjects = (activity.json().data as { subject_uuid: string }[]).map((x) => x.subject_uuid);
    expect(subjects).toContain(records.vehicles!.a2uuid);
    expect(subjects).not.toContain(bVehicle);
  });

  it('notifications belong to their user', async () => {
    const [n] = await h.storage.db.query<{ uuid: string }>(
      `INSERT INTO notifications (company_id, user_id, type, title, message) VALUES ($1, $2, 'general', 't', 'm') RETURNING uuid`,
      [w.b.id, w.users.adminB.id],
    );
    for (const [method, url] of [
      ['GET', `/v1/notifications/${n!.uuid}`],
      ['POST', `/v1/notifications/${n!.uuid}/read`],
    ] as const) {
      const r = await call(h.app, { method, url, token: w.users.adminA.token, company: w.a.uuid });
      expect(r.statusCode).toBe(404);
    }
    const own = await call(h.app, {
      method: 'POST',
      url: `/v1/notifications/${n!.uuid}/read`,
      token: w.users.adminB.token,
      company: w.b.uuid,
    });
    expect(own.json().data.read).toBe(true);
  });
});
