import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('vehicle-list');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

describe('GET /v1/vehicles: live status and last seen', () => {
  it('filters by live status and last-seen range and sorts by last seen, model and IMEI', async () => {
    const get = (url: string) =>
      call(h.app, { method: 'GET', url, token: w.users.adminA.token, company: w.a.uuid });
    const post = (url: string, body: unknown) =>
      call(h.app, { method: 'POST', url, token: w.users.adminA.token, company: w.a.uuid, body });
    const plates: Record<string, string> = {};
    // live (10 min ago, ignition on), idle (3 h ago, parked), inactive (40 days ago), no tracker data
    const seen: [string, string, number | null, boolean][] = [
      ['L 1', '356307042441001', 10 * 60, true],
      ['I 2', '356307042441002', 3 * 3600, false],
      ['X 3', '356307042441003', 40 * 86_400, false],
      ['N 4', '356307042441004', null, false],
    ];
    for (const [plate, imei, ago, ignition] of seen) {
      expect((await post('/v1/devices', { imei, type: 'teltonika' })).statusCode).toBe(201);
      const v = await post('/v1/vehicles', {
        license_plate_number: plate,
        type: 'car',
        device_imei: imei,
        model: plate,
      });
      expect(v.statusCode).toBe(201);
      plates[plate] = v.json().data.uuid;
      if (ago === null) continue;
      await h.storage.db.query(
        `INSERT INTO latest_locations (device_id, company_id, fix_time, latitude, longitude, speed, ignition, is_idle)
         SELECT d.id, d.company_id, now() - make_interval(secs => $2), 25.2, 55.3, 0, $3, NOT $3 FROM devices d WHERE d.imei = $1`,
        [imei, ago, ignition],
      );
    }
    const list = async (query: string) =>
      ((await get(`/v1/vehicles?${query}`)).json().data as { license_plate_number: string }[])
        .map((v) => v.license_plate_number)
        .filter((p) => p in plates);

    expect(await list('live_status=live')).toEqual(['L 1']);
    expect(await list('live_status=idle')).toEqual(['I 2']);
    expect(await list('live_status=inactive')).toEqual(['X 3']);
    expect(await list('live_status=no-data')).toEqual(['N 4']);
    expect(await list('last_seen=hour')).toEqual(['L 1']);
    expect(await list('last_seen=day')).toEqual(['I 2']);
    expect(await list('last_seen=older')).toEqual(['X 3']);
    expect(await list('last_seen=never')).toEqual(['N 4']);
    expect(await list('last_seen=week')).toEqual([]);
    // most recent first; never seen last in either order
    expect(await list('sort=last_seen&order=desc')).toEqual(['L 1', 'I 2', 'X 3', 'N 4']);
    expect(await list('sort=last_seen&order=asc')).toEqual(['X 3', 'I 2', 'L 1', 'N 4']);
    expect(await list('sort=model&order=asc')).toEqual(['I 2', 'L 1', 'N 4', 'X 3']);
    expect(await list('sort=device_imei&order=desc')).toEqual(['N 4', 'X 3', 'I 2', 'L 1']);
    // filters combine with the existing ones
    expect(await list('live_status=live&search=L')).toEqual(['L 1']);
    expect(await list('live_status=live&type=bus')).toEqual([]);
    // refused by the contract
    expect((await get('/v1/vehicles?live_status=parked')).statusCode).toBe(422);
    expect((await get('/v1/vehicles?last_seen=month')).statusCode).toBe(422);
    expect((await get('/v1/vehicles?sort=chassis_number')).statusCode).toBe(422);
  });
});
