import { describe, expect, it } from 'vitest';
import { MIN } from '../common/fixtures';
import { destination } from '../common/geo';
import { TrackBuilder } from '../common/track-builder';
import type { PositionRecord } from '../common/types';
import {
  applyPosition,
  applyTick,
  cancelInstance,
  generateInstances,
  type ScheduledStop,
  type ScheduledTripDef,
  type TripInstance,
  type TripInstanceEvent,
} from './instances';

const origin = { lat: 25.2, lon: 55.3 };
const stopAt = (id: string, km: number, passengers: string[]): ScheduledStop => {
  const p = destination(origin.lat, origin.lon, 0, km * 1000);
  return { id, name: `Stop ${id}`, lat: p.lat, lon: p.lon, passengerIds: passengers };
};
const def: ScheduledTripDef = {
  id: 'st1',
  companyId: 'c1',
  name: 'Morning run',
  type: 'round',
  departure: { startTime: '06:30', endTime: '07:30' },
  return: { startTime: '13:00', endTime: '14:00' },
  days: [1, 2, 3, 4, 5],
  stops: [stopAt('a', 0, []), stopAt('b', 5, ['p1', 'p2']), stopAt('c', 10, ['p3'])],
  vehicleId: 'v1',
  driverId: 'd1',
  cancelledDates: ['2026-01-07'],
};
// Monday 2026-01-05 06:30 in Dubai
const START = Date.UTC(2026, 0, 5, 2, 30);

describe('generateInstances', () => {
  it('a round trip gives a departure and a reversed return leg on active days', () => {
    const list = generateInstances([def], '2026-01-05');
    expect(list.map((i) => [i.id, i.status, i.stops.map((s) => s.id).join('')])).toEqual([
      ['st1:2026-01-05:departure', 'pending', 'abc'],
      ['st1:2026-01-05:return', 'pending', 'cba'],
    ]);
    expect(list[0]!.plannedStart).toBe(START);
    expect(list[0]!.plannedEnd).toBe(START + 60 * MIN);
    expect(list[1]!.plannedStart).toBe(Date.UTC(2026, 0, 5, 9, 0));
  });

  it.each([
    ['Sunday is not an active day', '2026-01-04', []],
    ['a cancelled date', '2026-01-07', ['cancelled', 'cancelled']],
  ])('%s', (_n, date, statuses) => {
    expect(generateInstances([def], date).map((i) => i.status)).toEqual(statuses);
  });

  it('validity range, one-way trips and legs past midnight', () => {
    expect(generateInstances([{ ...def, validFrom: '2026-02-01' }], '2026-01-05')).toEqual([]);
    expect(generateInstances([{ ...def, validTo: '2026-01-01' }], '2026-01-05')).toEqual([]);
    const night = generateInstances(
      [{ ...def, type: 'one_way', days: undefined, departure: { startTime: '23:30', endTime: '00:30' } }],
      '2026-01-05',
    );
    expect(night).toHaveLength(1);
    expect(night[0]!.plannedEnd - night[0]!.plannedStart).toBe(60 * MIN);
  });

  it.each([
    [{ ...def, type: 'round', return: undefined }, /needs return times/],
    [{ ...def, stops: [] }, /at least one stop/],
    [{ ...def, departure: { startTime: '6:30', endTime: '07:30' } }, /HH:mm/],
  ] as [ScheduledTripDef, RegExp][])('rejects bad definitions (%#)', (bad, error) => {
    expect(() => generateInstances([bad], '2026-01-05')).toThrow(error);
  });
});

function run(inst: TripInstance, records: PositionRecord[]) {
  const events: TripInstanceEvent[] = [];
  let cur = inst;
  for (const r of records) {
    const t = applyTick(cur, r.time);
    events.push(...t.events);
    const a = applyPosition(t.instance, r);
    events.push(...a.events);
    cur = a.instance;
  }
  return { inst: cur, events };
}

describe('status from the vehicle movement', () => {
  const departure = () => generateInstances([def], '2026-01-05')[0]!;

  it('pending -> started -> stops reached, nearing events -> completed', () => {
    const rs = new TrackBuilder(START - 5 * MIN, origin.lat, origin.lon, { stepS: 10 })
      .park(300)
      .drive(660, 60, 0) // 11 km north through b (5 km) to c (10 km)
      .park(60)
      .records();
    const { inst, events } = run(departure(), rs);
    expect(inst.status).toBe('completed');
    expect(inst.late).toBe(false);
    expect(inst.incomplete).toBe(false);
    expect(Object.keys(inst.reached).sort()).toEqual(['a', 'b', 'c']);
    const summary = events.map((e) => (e.kind === 'status' ? `${e.from}->${e.to}` : `${e.kind}:${e.stopId}`));
    expect(summary).toEqual([
      'pending->started',
      'stop_reached:a',
      'nearing_stop:b',
      'stop_reached:b',
      'nearing_stop:c',
      'stop_reached:c',
      'started->completed',
    ]);
    const nearing = events.find((e) => e.kind === 'nearing_stop' && e.stopId === 'b');
    expect(nearing).toMatchObject({ passengerIds: ['p1', 'p2'], stopName: 'Stop b', etaMinutes: 1 });
  });

  it('pending -> delayed after the grace, then started late', () => {
    const rs = new TrackBuilder(START + 20 * MIN, origin.lat, origin.lon, { stepS: 10 })
      .park(60)
      .drive(300, 60, 0)
      .records();
    const inst = departure();
    const ticked = applyTick(inst, START + 11 * MIN);
    expect(ticked.events).toEqual([
      {
        kind: 'status',
        instanceId: inst.id,
        from: 'pending',
        to: 'delayed',
        time: START + 11 * MIN,
        minutesLate: 11,
      },
    ]);
    expect(applyTick(inst, START + 10 * MIN).events).toEqual([]);
    const { inst: after } = run(ticked.instance, rs);
    expect([after.status, after.late]).toEqual(['started', true]);
  });

  it('missed when it never starts; completed as incomplete after the grace period', () => {
    expect(applyTick(departure(), START + 61 * MIN).instance.status).toBe('missed');
    const rs = new TrackBuilder(START, origin.lat, origin.lon, { stepS: 10 }).drive(120, 60, 0).records();
    const { inst } = run(departure(), rs);
    expect(inst.status).toBe('started');
    const done = applyTick(inst, START + 60 * MIN + 121 * MIN).instance;
    expect([done.status, done.incomplete]).toEqual(['completed', true]);
  });

  it('positions far outside the window, ignored positions and other statuses do nothing', () => {
    const inst = departure();
    const early = new TrackBuilder(START - 60 * MIN, origin.lat, origin.lon).drive(60, 60, 0).records();
    expect(run(inst, early).inst.status).toBe('pending');
    const moving = new TrackBuilder(START, origin.lat, origin.lon).drive(60, 60, 0).records();
    expect(
      run(
        inst,
        moving.map((r) => ({ ...r, ignored: true })),
      ).inst.status,
    ).toBe('pending');
    const cancelled = cancelInstance(inst, START).instance;
    expect(cancelled.status).toBe('cancelled');
    expect(run(cancelled, moving).inst.status).toBe('cancelled');
    expect(cancelInstance(cancelled, START).events).toEqual([]);
  });

  it('a vehicle waiting at the first stop at departure time counts as started', () => {
    const rs = new TrackBuilder(START, origin.lat, origin.lon).park(30).records();
    expect(run(departure(), rs).inst.status).toBe('started');
  });
});
