/**
 * The Timezone header decides where days begin wherever the API buckets dates (the dashboard's
 * period and daily series); an unknown zone falls back to UTC instead of failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from '../../test/fixtures';
import { createFullServer } from '../security-tests/route-table';

let s: Awaited<ReturnType<typeof createFullServer>>;
let w: World;
beforeAll(async () => {
  s = await createFullServer('modules_timezone');
  w = await buildWorld(s.storage.db);
  // 22:00 UTC: still the 20th in London, already the 21st in Dubai (UTC+4).
  s.clock.now = new Date('2026-11-20T22:00:00Z');
}, 60_000);
afterAll(() => s.close());

const dashboard = async (timezone?: string) => {
  const r = await s.app.inject({
    method: 'GET',
    url: '/v1/reports/dashboard?period=week',
    headers: {
      authorization: `Bearer ${w.users.adminA.token}`,
      'x-transport-uuid': w.a.uuid,
      ...(timezone ? { timezone } : {}),
    },
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data as { from: string; to: string; series: { at: string }[] };
};

describe('Timezone header', () => {
  it('days of the dashboard series start at midnight of the request zone', async () => {
    const utc = await dashboard('UTC');
    const dubai = await dashboard('Asia/Dubai');
    expect(utc.series).toHaveLength(7);
    expect(dubai.series).toHaveLength(7);
    expect(utc.series.at(-1)!.at).toBe('2026-11-20T00:00:00.000Z');
    expect(dubai.series.at(-1)!.at).toBe('2026-11-20T20:00:00.000Z');
  });

  it('an unknown or hostile zone is treated as UTC', async () => {
    const utc = await dashboard('UTC');
    for (const tz of ['Mars/Olympus', 'x'.repeat(500), "'; DROP TABLE users; --"]) {
      expect((await dashboard(tz)).series).toEqual(utc.series);
    }
    expect((await dashboard()).series).toEqual(utc.series);
  });
});
