import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { rec } from '../common/fixtures';
import { destination } from '../common/geo';
import type { PositionRecord } from '../common/types';
import { SalikDetector } from './detector';
import type { SalikGate } from './gates';
import { defaultSalikDataPath, defaultSalikOverlayPath, loadSalik, parseSalik } from './load';
import { parseDays, SalikTariffTable } from './tariff';

/** Epoch of a Dubai wall-clock time (UTC+4, no DST). */
const dubai = (y: number, mo: number, d: number, h: number, mi: number) => Date.UTC(y, mo - 1, d, h - 4, mi);

const salik = loadSalik();
const { tariff } = salik;

describe('Salik tariff (data-driven)', () => {
  // 2026-01-05 is a Monday; 2026-01-04 a Sunday; 2026-01-10 a Saturday.
  it.each([
    ['Mon 05:59 free', dubai(2026, 1, 5, 5, 59), 0],
    ['Mon 06:00 peak', dubai(2026, 1, 5, 6, 0), 6],
    ['Mon 09:59 peak', dubai(2026, 1, 5, 9, 59), 6],
    ['Mon 10:00 off-peak', dubai(2026, 1, 5, 10, 0), 4],
    ['Mon 15:59 off-peak', dubai(2026, 1, 5, 15, 59), 4],
    ['Mon 16:00 peak', dubai(2026, 1, 5, 16, 0), 6],
    ['Mon 19:59 peak', dubai(2026, 1, 5, 19, 59), 6],
    ['Mon 20:00 off-peak', dubai(2026, 1, 5, 20, 0), 4],
    ['Tue 00:59 (Monday night) off-peak', dubai(2026, 1, 6, 0, 59), 4],
    ['Tue 01:00 free', dubai(2026, 1, 6, 1, 0), 0],
    ['Sat 08:00 peak', dubai(2026, 1, 10, 8, 0), 6],
    ['Sun 00:30 (Saturday night) off-peak', dubai(2026, 1, 4, 0, 30), 4],
    ['Sun 05:59 free', dubai(2026, 1, 4, 5, 59), 0],
    ['Sun 06:00 flat 4', dubai(2026, 1, 4, 6, 0), 4],
    ['Sun 08:00 no peak', dubai(2026, 1, 4, 8, 0), 4],
    ['Sun 17:00 no peak', dubai(2026, 1, 4, 17, 0), 4],
    ['Mon 00:30 (Sunday night) off-peak', dubai(2026, 1, 5, 0, 30), 4],
    ['30 Jan 2025 08:00: old flat tariff', dubai(2025, 1, 30, 8, 0), 4],
    ['30 Jan 2025 03:00: old flat tariff has no free hours', dubai(2025, 1, 30, 3, 0), 4],
    ['31 Jan 2025 03:00: variable tariff free', dubai(2025, 1, 31, 3, 0), 0],
    ['1 Feb 2025 (Sat) 08:00: variable tariff peak', dubai(2025, 2, 1, 8, 0), 6],
    ['Ramadan 2026 Mon 06:59 free', dubai(2026, 3, 2, 6, 59), 0],
    ['Ramadan 2026 Mon 07:00 off-peak', dubai(2026, 3, 2, 7, 0), 4],
    ['Ramadan 2026 Mon 08:59', dubai(2026, 3, 2, 8, 59), 4],
    ['Ramadan 2026 Mon 09:00 peak', dubai(2026, 3, 2, 9, 0), 6],
    ['Ramadan 2026 Mon 16:59 peak', dubai(2026, 3, 2, 16, 59), 6],
    ['Ramadan 2026 Mon 17:00 off-peak', dubai(2026, 3, 2, 17, 0), 4],
    ['Ramadan 2026 Tue 01:59 off-peak', dubai(2026, 3, 3, 1, 59), 4],
    ['Ramadan 2026 Tue 02:00 free', dubai(2026, 3, 3, 2, 0), 0],
    ['Ramadan 2026 Sun 12:00', dubai(2026, 3, 1, 12, 0), 4],
    ['Ramadan 2025 Mon 10:00 peak', dubai(2025, 3, 3, 10, 0), 6],
    ['after Ramadan 2025 (Mon 31 Mar) 10:00', dubai(2025, 3, 31, 10, 0), 4],
  ])('%s', (_name, t, fee) => {
    expect(tariff.feeAt(t).fee).toBe(fee);
  });

  it('reports the schedule, band and local time used', () => {
    expect(tariff.feeAt(dubai(2026, 1, 5, 6, 0))).toEqual({
      fee: 6,
      currency: 'AED',
      schedule: 'standard',
      band: { days: 'mon-sat', from: '06:00', to: '10:00', fee: 6 },
      holiday: false,
      local: '2026-01-05 06:00',
    });
    expect(tariff.feeAt(dubai(2026, 3, 2, 9, 0)).schedule).toBe('ramadan');
    expect(tariff.feeAt(dubai(2024, 5, 1, 9, 0)).schedule).toBe('flat');
  });

  it.each(['standard', 'ramadan'] as const)('every minute of a week has exactly one %s band', (kind) => {
    const start = kind === 'standard' ? dubai(2026, 1, 5, 0, 0) : dubai(2026, 2, 23, 0, 0);
    for (let m = 0; m < 7 * 24 * 60; m++) {
      const bands = tariff.bandsAt(start + m * 60_000);
      if (bands.length !== 1) throw new Error(`minute ${m}: ${bands.length} bands`);
    }
  });

  it('a calendar holiday is charged like a Sunday', () => {
    const data = JSON.parse(readFileSync(defaultSalikDataPath, 'utf8'));
    const withHoliday = new SalikTariffTable(data, { holidays: ['2026-01-05'] });
    expect(withHoliday.feeAt(dubai(2026, 1, 5, 8, 0))).toMatchObject({ fee: 4, holiday: true });
    expect(withHoliday.feeAt(dubai(2026, 1, 5, 3, 0)).fee).toBe(0);
    expect(withHoliday.feeAt(dubai(2026, 1, 6, 8, 0)).fee).toBe(6);
  });

  it('fails clearly on dates without a tariff and on bad data', () => {
    const data = JSON.parse(readFileSync(defaultSalikDataPath, 'utf8'));
    expect(() => tariff.feeAt(dubai(2006, 1, 1, 8, 0))).toThrow(/No Salik tariff in force on 2006-01-01/);
    const gap = {
      ...data,
      tariffs: [
        { effective_from: '2025-01-31', bands: [{ days: 'sun', from: '06:00', to: '07:00', fee: 4 }] },
      ],
    };
    expect(() => new SalikTariffTable(gap).feeAt(dubai(2026, 1, 5, 8, 0))).toThrow(
      /No Salik tariff band covers 2026-01-05 08:00/,
    );
    expect(() => parseDays('funday')).toThrow(/Invalid days/);
    expect(
      () => new SalikTariffTable(data, { ramadan_periods: [{ from: '2026-03-10', to: '2026-03-01' }] }),
    ).toThrow(/ends before/);
    expect(() => parseSalik({ ...data, tariffs: 'x' }, {})).toThrow(/tariffs/);
    expect(() => loadSalik('/nonexistent/salik.json', defaultSalikOverlayPath)).toThrow(
      /Cannot read Salik data file/,
    );
  });

  it.each([
    ['mon-sat', [1, 2, 3, 4, 5, 6]],
    ['fri-sun', [0, 5, 6]],
    ['sun', [0]],
    ['all', [0, 1, 2, 3, 4, 5, 6]],
    ['sat,sun', [0, 6]],
  ])('parseDays(%s)', (spec, days) => {
    expect([...parseDays(spec)].sort()).toEqual(days);
  });
});

const gate = (code: string) => salik.gates.find((g) => g.code === code)!;

/** Two fixes 60 m before and after a gate along `heading`, 6 s apart, plus an offset across the road. */
function pass(g: SalikGate, heading: number, time: number, lateralM = 0): PositionRecord[] {
  const centre = lateralM
    ? destination(g.lat, g.lon, g.roadBearingDeg + 90, lateralM)
    : { lat: g.lat, lon: g.lon };
  const before = destination(centre.lat, centre.lon, heading + 180, 60);
  const after = destination(centre.lat, centre.lon, heading, 60);
  return [
    rec({ time: time - 3000, lat: before.lat, lon: before.lon, speed: 72 }),
    rec({ time: time + 3000, lat: after.lat, lon: after.lon, speed: 72 }),
  ];
}

function run(detector: SalikDetector, records: PositionRecord[], vehicle = 'v1') {
  return records.flatMap((r) => detector.update(vehicle, r));
}

describe('SalikDetector', () => {
  it('all ten gates are loaded with a line and a direction', () => {
    expect(salik.gates.map((g) => g.code).sort()).toEqual([
      'airport_tunnel',
      'barsha',
      'business_bay',
      'garhoud',
      'jebel_ali',
      'maktoum',
      'mamzar_north',
      'mamzar_south',
      'safa',
      'safa_south',
    ]);
  });

  it('a crossing gives gate, interpolated time, direction and the fee in force', () => {
    const d = new SalikDetector(salik.gates, tariff);
    const g = gate('garhoud');
    const out = run(d, pass(g, g.roadBearingDeg, dubai(2026, 1, 5, 8, 0)));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      gateCode: 'garhoud',
      gateNameEn: 'Al Garhoud Bridge',
      direction: 'forward',
      directionName: 'to_deira',
      fee: 6,
      currency: 'AED',
    });
    expect(Math.abs(out[0]!.time - dubai(2026, 1, 5, 8, 0))).toBeLessThanOrEqual(1);
    const back = run(d, pass(g, g.roadBearingDeg + 180, dubai(2026, 1, 5, 10, 30)));
    expect(back).toMatchObject([{ direction: 'reverse', directionName: 'to_bur_dubai', fee: 4 }]);
  });

  it('crossing at 05:59:59 vs 06:00:01 takes the fee of the crossing instant', () => {
    const g = gate('barsha');
    const early = run(new SalikDetector(salik.gates, tariff), pass(g, 45, dubai(2026, 1, 5, 5, 59) + 59_000));
    const late = run(new SalikDetector(salik.gates, tariff), pass(g, 45, dubai(2026, 1, 5, 6, 0) + 1000));
    expect([early[0]!.fee, late[0]!.fee]).toEqual([0, 6]);
  });

  it('the opposite direction of a one-way gate is not charged', () => {
    const oneWay: SalikGate = { ...gate('jebel_ali'), charged: ['forward'] };
    const d = new SalikDetector([oneWay], tariff);
    expect(run(d, pass(oneWay, oneWay.roadBearingDeg + 180, dubai(2026, 1, 5, 8, 0)))).toEqual([]);
    expect(run(d, pass(oneWay, oneWay.roadBearingDeg, dubai(2026, 1, 5, 9, 0)))).toHaveLength(1);
  });

  it('driving along beside the gate line or far from it is not a crossing', () => {
    const g = gate('safa');
    const d = new SalikDetector(salik.gates, tariff);
    expect(run(d, pass(g, g.roadBearingDeg, dubai(2026, 1, 5, 8, 0), 400))).toEqual([]);
    // moving parallel to the gate line (across the road) does not cross it
    expect(run(d, pass(g, g.roadBearingDeg + 90, dubai(2026, 1, 5, 9, 0)))).toEqual([]);
  });

  it('segments across a long gap, ignored fixes and late fixes are not used', () => {
    const g = gate('maktoum');
    const [a, b] = pass(g, g.roadBearingDeg, dubai(2026, 1, 5, 8, 0));
    const d = new SalikDetector(salik.gates, tariff);
    expect(run(d, [a!, { ...b!, time: a!.time + 10 * 60_000 }])).toEqual([]);
    const d2 = new SalikDetector(salik.gates, tariff);
    expect(run(d2, [a!, { ...b!, ignored: true }])).toEqual([]);
    const d3 = new SalikDetector(salik.gates, tariff);
    expect(run(d3, [b!, a!])).toEqual([]);
  });

  describe('linked groups', () => {
    const south = gate('mamzar_south');
    const north = gate('mamzar_north');
    const t0 = dubai(2026, 1, 5, 11, 0);

    it.each([
      ['59 minutes later, same direction: charged once', 59, 0, true],
      ['61 minutes later, same direction: charged again', 61, 4, false],
    ])('%s', (_n, minutes, secondFee, linked) => {
      const d = new SalikDetector(salik.gates, tariff);
      const first = run(d, pass(south, 10, t0));
      const second = run(d, pass(north, 10, t0 + minutes * 60_000));
      expect(first).toMatchObject([{ gateCode: 'mamzar_south', fee: 4 }]);
      expect(second).toMatchObject([{ gateCode: 'mamzar_north', fee: secondFee }]);
      expect(second[0]!.linkedTo).toBe(linked ? first[0]!.id : undefined);
    });

    it('opposite directions are both charged', () => {
      const d = new SalikDetector(salik.gates, tariff);
      const first = run(d, pass(south, 10, t0));
      const second = run(d, pass(north, 190, t0 + 20 * 60_000));
      expect([first[0]!.fee, second[0]!.fee]).toEqual([4, 4]);
    });

    it('the same gate twice is charged twice; other vehicles are independent', () => {
      const d = new SalikDetector(salik.gates, tariff);
      expect(run(d, pass(south, 10, t0))[0]!.fee).toBe(4);
      expect(run(d, pass(south, 10, t0 + 10 * 60_000))[0]!.fee).toBe(4);
      expect(run(d, pass(north, 10, t0 + 20 * 60_000), 'v2')[0]!.fee).toBe(4);
    });

    it('Al Safa and Al Safa South are linked too; a free night crossing does not make the next one free', () => {
      const d = new SalikDetector(salik.gates, tariff);
      const safa = gate('safa');
      const safaSouth = gate('safa_south');
      expect(run(d, pass(safa, 45, dubai(2026, 1, 5, 5, 40)))[0]!.fee).toBe(0);
      expect(run(d, pass(safaSouth, 45, dubai(2026, 1, 5, 6, 10)))[0]!.fee).toBe(6);
      expect(run(d, pass(safa, 45, dubai(2026, 1, 5, 6, 50)))[0]).toMatchObject({
        fee: 0,
        directionName: 'to_dubai',
      });
    });

    it('state survives snapshot and restore', () => {
      const d = new SalikDetector(salik.gates, tariff);
      run(d, pass(south, 10, t0));
      const d2 = new SalikDetector(salik.gates, tariff);
      d2.restore(JSON.parse(JSON.stringify(d.snapshot())));
      expect(run(d2, pass(north, 10, t0 + 30 * 60_000))[0]!.fee).toBe(0);
    });
  });

  it('rejects duplicate gate codes and bad half lengths', () => {
    expect(() => new SalikDetector([gate('safa'), gate('safa')], tariff)).toThrow(/Duplicate/);
    expect(() => new SalikDetector([{ ...gate('safa'), halfLengthM: 0 }], tariff)).toThrow(/half length/);
  });
});
