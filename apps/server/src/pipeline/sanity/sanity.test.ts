import { describe, expect, it } from 'vitest';
import { HOUR, MIN, rec } from '../common/fixtures';
import {
  checkLive,
  flagSequence,
  initialLiveSanityState,
  pointReasons,
  pointValid,
  type LiveSanityState,
} from './sanity';

const T0 = Date.UTC(2026, 0, 5, 8, 0);

describe('pointReasons', () => {
  it.each([
    ['valid Dubai fix', { lat: 25.2, lon: 55.3 }, []],
    ['latitude above 90', { lat: 90.5, lon: 55.3 }, ['invalid_coordinate']],
    ['latitude below -90', { lat: -91, lon: 55.3 }, ['invalid_coordinate']],
    ['longitude above 180', { lat: 25, lon: 180.01 }, ['invalid_coordinate']],
    ['longitude below -180', { lat: 25, lon: -200 }, ['invalid_coordinate']],
    ['NaN coordinate', { lat: Number.NaN, lon: 55 }, ['invalid_coordinate']],
    ['null island', { lat: 0, lon: 0 }, ['null_island']],
    ['equator but not null island', { lat: 0, lon: 10 }, []],
    ['boundary 90/180 is valid', { lat: 90, lon: -180 }, []],
  ])('%s', (_name, coords, expected) => {
    expect(pointReasons(rec({ time: T0, ...coords }))).toEqual(expected);
    expect(pointValid(rec({ time: T0, ...coords }))).toBe(expected.length === 0);
  });

  it.each([
    ['10 minutes ahead is allowed', 10 * MIN, []],
    ['10 minutes and 1 s ahead is future', 10 * MIN + 1000, ['future_time']],
    ['a day ahead is future', 24 * HOUR, ['future_time']],
    ['in the past is fine', -2 * HOUR, []],
  ])('%s', (_name, ahead, expected) => {
    expect(pointReasons(rec({ time: T0 + ahead, receivedAt: T0 }))).toEqual(expected);
    expect(pointValid(rec({ time: T0 + ahead, receivedAt: T0 }))).toBe(expected.length === 0);
  });

  it('rejects 1970 timestamps of devices without a fix', () => {
    expect(pointReasons(rec({ time: 1000, receivedAt: T0 }))).toEqual(['invalid_time']);
    expect(pointValid(rec({ time: 1000, receivedAt: T0 }))).toBe(false);
    expect(pointValid(rec({ time: Number.NaN, receivedAt: T0 }))).toBe(false);
  });
});

describe('checkLive', () => {
  const run = (records: ReturnType<typeof rec>[]) => {
    let state: LiveSanityState = initialLiveSanityState;
    return records.map((r) => {
      const out = checkLive(state, r);
      state = out.state;
      return out.verdict.ignored;
    });
  };

  it('ignores a jump implying more than 300 km/h, keeps normal driving', () => {
    expect(
      run([
        rec({ time: T0, lat: 25.2, lon: 55.3 }),
        rec({ time: T0 + 10_000, lat: 25.2005, lon: 55.3 }), // 55 m in 10 s = 20 km/h
        rec({ time: T0 + 20_000, lat: 25.3, lon: 55.3 }), // 11 km in 10 s
        rec({ time: T0 + 30_000, lat: 25.201, lon: 55.3 }), // back near the reference
      ]),
    ).toEqual([false, false, true, false]);
  });

  it('accepts a long move after a long gap (implied speed is plausible)', () => {
    expect(run([rec({ time: T0, lat: 25.2 }), rec({ time: T0 + 2 * HOUR, lat: 26.2 })])).toEqual([
      false,
      false,
    ]);
  });

  it('re-anchors after three consecutive rejected jumps', () => {
    expect(
      run([
        rec({ time: T0, lat: 24.0 }),
        rec({ time: T0 + 10_000, lat: 25.2 }),
        rec({ time: T0 + 20_000, lat: 25.2001 }),
        rec({ time: T0 + 30_000, lat: 25.2002 }),
        rec({ time: T0 + 40_000, lat: 25.2003 }),
      ]),
    ).toEqual([false, true, true, false, false]);
  });

  it('point failures never become the reference', () => {
    expect(
      run([
        rec({ time: T0, lat: 0, lon: 0 }),
        rec({ time: T0 + 1000, lat: 25.2 }),
        rec({ time: T0 + 2000, lat: 25.2 }),
      ]),
    ).toEqual([true, false, false]);
  });
});

describe('flagSequence', () => {
  const track = [0, 1, 2, 3, 4].map((i) => rec({ time: T0 + i * 10_000, lat: 25.2 + i * 0.0005 }));

  it('flags an isolated spike and nothing else', () => {
    const withSpike = [...track];
    withSpike[2] = rec({ time: T0 + 20_000, lat: 25.5 });
    expect(flagSequence(withSpike).map((r) => r.ignored)).toEqual([false, false, true, false, false]);
  });

  it('flags a spike at either end only when the rest agrees', () => {
    const first = [rec({ time: T0 - 10_000, lat: 26 }), ...track];
    expect(flagSequence(first).map((r) => r.ignored)).toEqual([true, false, false, false, false, false]);
    const last = [...track, rec({ time: T0 + 50_000, lat: 26 })];
    expect(flagSequence(last).map((r) => r.ignored)).toEqual([false, false, false, false, false, true]);
    expect(flagSequence([track[0]!, rec({ time: T0 + 1000, lat: 26 })]).map((r) => r.ignored)).toEqual([
      false,
      false,
    ]);
  });

  it('gives each record the same verdict in any window that contains its neighbours', () => {
    const withSpike = [...track];
    withSpike[2] = rec({ time: T0 + 20_000, lat: 25.5 });
    const all = flagSequence(withSpike).map((r) => r.ignored);
    const window = flagSequence(withSpike.slice(1, 4)).map((r) => r.ignored);
    expect(window[1]).toBe(all[2]);
  });

  it('skips point-invalid records when looking for neighbours and keeps prior flags', () => {
    const seq = [
      track[0]!,
      rec({ time: T0 + 5000, lat: 0, lon: 0 }),
      track[1]!,
      { ...track[2]!, ignored: true },
    ];
    const out = flagSequence(seq);
    expect(out.map((r) => r.ignored)).toEqual([false, true, false, true]);
    expect(out[1]!.sanityReasons).toEqual(['null_island']);
  });
});
