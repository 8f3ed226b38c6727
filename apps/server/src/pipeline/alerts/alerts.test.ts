import { describe, expect, it } from 'vitest';
import { MIN, rec } from '../common/fixtures';
import type { PositionRecord } from '../common/types';
import { AlertEngine, alertTypes, type AlertRules, type VehicleContext } from './engine';
import { alertRulesFrom } from './from-rules';
import { alertLocale, alertMessagesAr, alertMessagesEn, renderMessage } from '../../alerts/messages';

const T0 = Date.UTC(2026, 0, 5, 6, 0);
const ctx: VehicleContext = { vehicleId: 'v1', plate: 'A 12345', driverId: 'd1' };
const allOn: AlertRules = {
  overspeed: { enabled: true, limitKmh: 100, cooldownS: 300 },
  emergency: { enabled: true },
  violationOutput: { enabled: true },
  ignition: { on: true, off: true },
  powerCut: { enabled: true },
  lowBattery: { enabled: true },
  geofence: { entry: true, exit: true },
  salik: { enabled: true },
  offline: { enabled: true, afterMinutes: 60 },
  inactive: { enabled: true },
  documentExpiry: { enabled: true, daysAhead: 30 },
  scheduledTrip: { delayed: true, missed: true },
};

const feed = (engine: AlertEngine, records: PositionRecord[], c: VehicleContext = ctx) =>
  records.flatMap((r) => engine.onPosition(c, r));
const speeds = (list: number[], stepS = 10) =>
  list.map((speed, i) => rec({ time: T0 + i * stepS * 1000, speed }));

describe('overspeed', () => {
  it('one episode fires once with the speed as violation value', () => {
    const alerts = feed(new AlertEngine('c1', allOn), speeds([90, 105, 120, 130, 101, 98, 110]));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: 'overspeed',
      companyId: 'c1',
      vehicleId: 'v1',
      driverId: 'd1',
      violationValue: 105,
      deviceCreatedAt: new Date(T0 + 10_000).toISOString(),
      titleKey: 'alerts.overspeed.title',
      messageKey: 'alerts.overspeed.message',
      params: { plate: 'A 12345', speed: 105, limit: 100 },
    });
  });

  it('a new episode after the speed dropped and the cool-down passed fires again', () => {
    const e = new AlertEngine('c1', allOn);
    const first = feed(e, speeds([110, 80]));
    const tooSoon = feed(e, [
      rec({ time: T0 + 2 * MIN, speed: 115 }),
      rec({ time: T0 + 3 * MIN, speed: 60 }),
    ]);
    const later = feed(e, [rec({ time: T0 + 6 * MIN, speed: 120 })]);
    const sent = (list: typeof first) => list.filter((a) => !a.update);
    expect([sent(first).length, sent(tooSoon).length, sent(later).length]).toEqual([1, 0, 1]);
    // the first episode closed when the 115 came (it had been under since 10 s, longer than the hold)
    expect(tooSoon.filter((a) => a.update)).toMatchObject([
      {
        dedupeKey: first[0]!.dedupeKey,
        violationValue: 110,
        data: { episodeEnd: new Date(T0 + 10_000).toISOString() },
      },
    ]);
    expect(later.filter((a) => a.update)).toEqual([]);
  });

  it('one stretch of road with a short dip is one event; its end carries start, end and peak', () => {
    const e = new AlertEngine('c1', allOn);
    // 10 s records: over 110-134 km/h for 3 min, a 30 s dip to 70 (a junction), over again, then under
    const list = [
      ...Array.from({ length: 18 }, (_, i) => 110 + (i % 5) * 6),
      70,
      70,
      70,
      ...Array.from({ length: 12 }, () => 118),
      60,
      60,
      60,
      60,
      60,
      60,
      60,
      60,
    ];
    const out = feed(e, speeds(list));
    const sent = out.filter((a) => !a.update);
    expect(sent).toHaveLength(1);
    const ends = out.filter((a) => a.update);
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({
      type: 'overspeed',
      dedupeKey: sent[0]!.dedupeKey,
      violationValue: 134,
      messageKey: 'alerts.overspeed.episode',
      params: { plate: 'A 12345', speed: 134, limit: 100, minutes: 6 },
      data: {
        episodeStart: new Date(T0).toISOString(),
        episodeEnd: new Date(T0 + 33 * 10_000).toISOString(),
        peakValue: 134,
      },
    });
    expect(renderMessage('alerts.overspeed.episode', ends[0]!.params, 'en')).toBe(
      'A 12345 drove over the 100 km/h limit for 6 min, at up to 134 km/h.',
    );
  });

  it('an episode held back by the cool-down ends without an update', () => {
    const e = new AlertEngine('c1', allOn);
    feed(e, speeds([110, 60, 60, 60, 60, 60, 60, 60, 60]));
    const second = feed(e, [
      rec({ time: T0 + 2 * MIN, speed: 120 }),
      rec({ time: T0 + 3 * MIN, speed: 60 }),
      rec({ time: T0 + 5 * MIN, speed: 60 }),
    ]);
    expect(second).toEqual([]);
  });

  it('a vehicle limit overrides the company limit; minimum duration is honoured', () => {
    expect(feed(new AlertEngine('c1', allOn), speeds([85]), { ...ctx, speedLimitKmh: 80 })).toHaveLength(1);
    const sustained: AlertRules = { overspeed: { enabled: true, limitKmh: 100, minDurationS: 20 } };
    expect(feed(new AlertEngine('c1', sustained), speeds([110, 110, 80, 110]))).toHaveLength(0);
    expect(feed(new AlertEngine('c1', sustained), speeds([110, 110, 110]))[0]!.deviceCreatedAt).toBe(
      new Date(T0 + 20_000).toISOString(),
    );
  });

  it('ignored, late and disabled inputs never fire', () => {
    const e = new AlertEngine('c1', allOn);
    expect(feed(e, [rec({ time: T0, speed: 200, ignored: true })])).toEqual([]);
    feed(e, [rec({ time: T0 + MIN, speed: 50 })]);
    expect(feed(e, [rec({ time: T0, speed: 200 })])).toEqual([]);
    expect(feed(new AlertEngine('c1', {}), speeds([200]))).toEqual([]);
  });
});

describe('idling and quiet hours', () => {
  const idleRules: AlertRules = { idling: { enabled: true, afterMinutes: 10 } };
  it('ignition on and standing for N minutes fires once; moving off closes the episode', () => {
    const e = new AlertEngine('c1', idleRules);
    const standing = Array.from({ length: 16 }, (_, i) =>
      rec({ time: T0 + i * MIN, speed: i % 3, io: { 239: 1 } }),
    );
    const out = feed(e, [...standing, rec({ time: T0 + 16 * MIN, speed: 30, io: { 239: 1 } })]);
    expect(out.map((a) => [a.type, a.update ?? false, a.violationValue])).toEqual([
      ['idling', false, 10],
      ['idling', true, 16],
    ]);
    expect(out[1]!.dedupeKey).toBe(out[0]!.dedupeKey);
    expect(renderMessage('alerts.idling.message', out[0]!.params, 'ar')).toBe(
      'المركبة A 12345 متوقفة والمحرك يعمل منذ 10 دقيقة.',
    );
  });

  it('ignition off or a short stop never fires', () => {
    const off = Array.from({ length: 20 }, (_, i) => rec({ time: T0 + i * MIN, speed: 0, io: { 239: 0 } }));
    expect(feed(new AlertEngine('c1', idleRules), off)).toEqual([]);
    const short = Array.from({ length: 9 }, (_, i) => rec({ time: T0 + i * MIN, speed: 0, io: { 239: 1 } }));
    expect(feed(new AlertEngine('c1', idleRules), short)).toEqual([]);
  });

  it.each([
    ['inside a same-day window', '09:00:00', '11:00:00', 0],
    ['outside a same-day window', '11:00:00', '12:00:00', 1],
    ['inside a window across midnight', '22:00:00', '10:30:00', 0],
    ['exactly at the window end (end is open)', '08:00:00', '10:00:00', 1],
  ])('quiet hours %s', (_name, quietStart, quietEnd, expected) => {
    // T0 is 06:00 UTC = 10:00 in Dubai
    const rules = alertRulesFrom([
      { type: 'overspeed', status: 'active', speed_limit: 100, quiet_start: quietStart, quiet_end: quietEnd },
    ]);
    expect(feed(new AlertEngine('c1', rules), speeds([120]))).toHaveLength(expected);
  });

  it('an episode started in quiet hours does not fire when they end', () => {
    const rules = alertRulesFrom([
      {
        type: 'overspeed',
        status: 'active',
        speed_limit: 100,
        quiet_start: '09:00:00',
        quiet_end: '10:01:00',
      },
    ]);
    const e = new AlertEngine('c1', rules);
    const out = feed(
      e,
      Array.from({ length: 12 }, (_, i) => rec({ time: T0 + i * 10_000, speed: 120 })),
    );
    expect(out).toEqual([]);
  });
});

describe('device signals', () => {
  it.each([
    ['emergency button IO 251', [{ 251: 0 }, { 251: 1 }, { 251: 1 }, { 251: 0 }], ['emergency_button']],
    ['violation output IO 179', [{ 179: 0 }, { 179: 1 }, { 179: 1 }], ['violation_output']],
    [
      'ignition on then off',
      [{ 239: 0 }, { 239: 1 }, { 239: 1 }, { 239: 0 }],
      ['ignition_on', 'ignition_off'],
    ],
    ['first ignition reading is a baseline', [{ 239: 1 }, { 239: 1 }], []],
    ['unplug IO 252', [{ 252: 0 }, { 252: 1 }, { 252: 1 }], ['device_unplugged']],
    [
      'external voltage IO 66 drops',
      [{ 66: 12500 }, { 66: 200 }, { 66: 250 }, { 66: 12000 }, { 66: 100 }],
      ['device_unplugged', 'device_unplugged'],
    ],
    [
      'battery level IO 113 below 20 %',
      [{ 113: 50 }, { 113: 19 }, { 113: 21 }, { 113: 18 }],
      ['low_battery'],
    ],
    ['battery voltage IO 67 below 3.5 V', [{ 67: 3900 }, { 67: 3400 }], ['low_battery']],
  ])('%s', (_name, ios, expected) => {
    const e = new AlertEngine('c1', allOn);
    const records = ios.map((io, i) => rec({ time: T0 + i * 120_000, io }));
    expect(feed(e, records).map((a) => a.type)).toEqual(expected);
  });

  it('digital_output1 field counts like IO 179 and emergency repeats respect the cool-down', () => {
    const e = new AlertEngine('c1', allOn);
    expect(feed(e, [rec({ time: T0, digitalOutput1: 1 })]).map((a) => a.type)).toEqual(['violation_output']);
    const em = [1, 0, 1].map((v, i) => rec({ time: T0 + i * 10_000, io: { 251: v } }));
    expect(feed(new AlertEngine('c1', allOn), em)).toHaveLength(1);
  });

  it('low battery alert carries the reading', () => {
    const out = feed(new AlertEngine('c1', allOn), [rec({ time: T0, io: { 113: 12 } })]);
    expect(out[0]).toMatchObject({ violationValue: 12, params: { value: '12%' } });
  });
});

describe('events, clock and documents', () => {
  it('geofence entry/exit and salik crossings follow the rules', () => {
    const e = new AlertEngine('c1', allOn);
    const base = { geofenceId: 'g1', vehicleId: 'v1', deviceId: 'd', time: T0, lat: 25, lon: 55 };
    expect(
      e.onGeofenceEvent(ctx, { ...base, kind: 'entry' }, { nameEn: 'Depot', nameAr: 'المستودع' })[0],
    ).toMatchObject({
      type: 'geofence_entry',
      params: { geofence: 'Depot', geofence_ar: 'المستودع' },
    });
    expect(
      e.onGeofenceEvent(ctx, { ...base, kind: 'exit', dwellS: 600 }, { nameEn: 'Depot' })[0]!.params.dwell,
    ).toBe(10);
    const onlyEntry = new AlertEngine('c1', { geofence: { entry: true, exit: false } });
    expect(onlyEntry.onGeofenceEvent(ctx, { ...base, kind: 'exit' }, { nameEn: 'Depot' })).toEqual([]);
    const crossing = {
      id: 'v1:safa:1',
      vehicleId: 'v1',
      deviceId: 'd',
      gateCode: 'safa',
      gateNameEn: 'Al Safa',
      gateNameAr: 'الصفا',
      time: T0,
      direction: 'forward' as const,
      directionName: 'to_dubai',
      bearing: 45,
      lat: 25,
      lon: 55,
      fee: 6,
      currency: 'AED',
      tariff: { schedule: 'standard' as const, holiday: false, local: '2026-01-05 10:00' },
    };
    expect(e.onSalikCrossing(ctx, crossing)[0]).toMatchObject({ type: 'salik_crossing', violationValue: 6 });
    expect(new AlertEngine('c1', {}).onSalikCrossing(ctx, crossing)).toEqual([]);
  });

  it('offline after N minutes and inactive after 30 days fire once per silence', () => {
    const e = new AlertEngine('c1', allOn);
    const v = [{ ...ctx, lastSeen: T0 }];
    expect(e.onTick(T0 + 60 * MIN, v)).toEqual([]);
    expect(e.onTick(T0 + 61 * MIN, v).map((a) => a.type)).toEqual(['device_offline']);
    expect(e.onTick(T0 + 90 * MIN, v)).toEqual([]);
    expect(e.onTick(T0 + 31 * 24 * 60 * MIN, v).map((a) => a.type)).toEqual(['vehicle_inactive']);
    const again = [{ ...ctx, lastSeen: T0 + 32 * 24 * 60 * MIN }];
    expect(e.onTick(T0 + 32 * 24 * 60 * MIN + 61 * MIN, again).map((a) => a.type)).toEqual([
      'device_offline',
    ]);
    expect(e.onTick(T0, [{ ...ctx }])).toEqual([]);
  });

  it('documents expiring within N days fire once; expired ones use the expired text; bad dates are skipped', () => {
    const e = new AlertEngine('c1', allOn);
    const now = Date.UTC(2026, 0, 5, 6, 0); // 10:00 in Dubai on 2026-01-05
    const docs = [
      {
        kind: 'vehicle_insurance' as const,
        ownerId: 'v1',
        ownerName: 'A 12345',
        vehicleId: 'v1',
        expiresOn: '2026-02-04',
      },
      {
        kind: 'driver_license' as const,
        ownerId: 'd1',
        ownerName: 'Omar',
        driverId: 'd1',
        expiresOn: '2026-02-05',
      },
      {
        kind: 'driver_national_id' as const,
        ownerId: 'd1',
        ownerName: 'Omar',
        driverId: 'd1',
        expiresOn: '2026-01-01',
      },
      { kind: 'driver_residence_permit' as const, ownerId: 'd1', ownerName: 'Omar', expiresOn: '0001-01-01' },
      { kind: 'vehicle_registration' as const, ownerId: 'v1', ownerName: 'A 12345', expiresOn: 'soon' },
    ];
    const out = e.onDocuments(now, docs);
    expect(out.map((a) => [a.params.document, a.violationValue, a.messageKey])).toEqual([
      ['Vehicle insurance', 30, 'alerts.document_expiry.message'],
      ['National ID', -4, 'alerts.document_expiry.expired'],
    ]);
    expect(e.onDocuments(now, docs)).toEqual([]);
    expect(renderMessage(out[0]!.messageKey, out[0]!.params, 'ar')).toBe(
      'تنتهي تأمين المركبة الخاصة بـ A 12345 في 2026-02-04 (بعد 30 يوم).',
    );
  });

  it('document reminders go out 30, 7 and 1 days before and on the day, once per threshold', () => {
    const doc = {
      kind: 'vehicle_registration' as const,
      ownerId: 'v1',
      ownerName: 'A 12345',
      vehicleId: 'v1',
      expiresOn: '2026-02-04',
    };
    // 10:00 in Dubai on the given January / February day
    const at = (month: number, day: number) => Date.UTC(2026, month - 1, day, 6, 0);
    const e = new AlertEngine('c1', allOn);
    const fired: [string, number | null, string][] = [];
    // The daily check every day from 40 days before to 3 days after, twice a day (a second node or a restart).
    for (let t = Date.UTC(2025, 11, 26, 6, 0); t <= at(2, 7); t += 43_200_000) {
      for (const a of e.onDocuments(t, [doc])) fired.push([a.dedupeKey, a.violationValue, a.messageKey]);
    }
    expect(fired).toEqual([
      ['c1:document_expiry:v1:vehicle_registration:2026-02-04:30', 30, 'alerts.document_expiry.message'],
      ['c1:document_expiry:v1:vehicle_registration:2026-02-04:7', 7, 'alerts.document_expiry.message'],
      ['c1:document_expiry:v1:vehicle_registration:2026-02-04:1', 1, 'alerts.document_expiry.tomorrow'],
      ['c1:document_expiry:v1:vehicle_registration:2026-02-04:0', 0, 'alerts.document_expiry.today'],
    ]);

    // Another node taking the clock work over knows what was fired from the stored notifications.
    const other = new AlertEngine('c1', allOn);
    other.markFired(fired.map(([key]) => key.slice('c1:'.length)));
    expect(other.onDocuments(at(2, 4), [doc])).toEqual([]);

    // Entered late (5 days before): only the 7-day reminder; found expired: one 'expired' reminder.
    const late = new AlertEngine('c1', allOn);
    expect(late.onDocuments(at(1, 30), [doc]).map((a) => a.dedupeKey)).toEqual([
      'c1:document_expiry:v1:vehicle_registration:2026-02-04:7',
    ]);
    const afterwards = new AlertEngine('c1', allOn);
    const expired = afterwards.onDocuments(at(2, 6), [doc]);
    expect(expired.map((a) => [a.violationValue, a.messageKey])).toEqual([
      [-2, 'alerts.document_expiry.expired'],
    ]);
    expect(afterwards.onDocuments(at(2, 7), [doc])).toEqual([]);

    // A document reminded before the thresholds existed (key without one) is not reminded again at 30.
    const upgraded = new AlertEngine('c1', allOn);
    upgraded.markFired(['document_expiry:v1:vehicle_registration:2026-02-04']);
    expect(upgraded.onDocuments(at(1, 10), [doc])).toEqual([]);
    expect(upgraded.onDocuments(at(1, 29), [doc]).map((a) => a.violationValue)).toEqual([6]);

    // A renewed document (new expiry date) starts afresh; the user's language renders the day words.
    const renewed = e.onDocuments(at(2, 7), [{ ...doc, expiresOn: '2026-02-08' }]);
    expect(renewed.map((a) => a.messageKey)).toEqual(['alerts.document_expiry.tomorrow']);
    expect(renderMessage(renewed[0]!.messageKey, renewed[0]!.params, 'ar')).toBe(
      'تنتهي استمارة المركبة الخاصة بـ A 12345 غدًا، 2026-02-08.',
    );
    expect(renderMessage('alerts.document_expiry.today', renewed[0]!.params, 'en')).toBe(
      'Vehicle registration of A 12345 expires today, 2026-02-08.',
    );
  });

  it('scheduled trip delayed and missed', () => {
    const e = new AlertEngine('c1', allOn);
    const ev = { instanceId: 'st1:2026-01-05:departure', tripName: 'Morning run', vehicleId: 'v1', time: T0 };
    expect(e.onScheduledTripEvent({ ...ev, kind: 'delayed', minutesLate: 12 })[0]).toMatchObject({
      type: 'trip_delayed',
      violationValue: 12,
    });
    expect(e.onScheduledTripEvent({ ...ev, kind: 'missed' })[0]!.type).toBe('trip_missed');
    expect(new AlertEngine('c1', {}).onScheduledTripEvent({ ...ev, kind: 'missed' })).toEqual([]);
  });

  it('dedupe keys are stable per episode and state survives snapshot/restore', () => {
    const e = new AlertEngine('c1', allOn);
    const [a] = feed(e, speeds([120]));
    expect(a!.dedupeKey).toBe(`c1:overspeed:v1:${T0}`);
    const e2 = new AlertEngine('c1', allOn);
    e2.restore(JSON.parse(JSON.stringify(e.snapshot())));
    expect(feed(e2, [rec({ time: T0 + 10_000, speed: 125 })])).toEqual([]);
  });
});

describe('messages', () => {
  it('English and Arabic catalogues have the same keys and placeholders', () => {
    expect(Object.keys(alertMessagesAr).sort()).toEqual(Object.keys(alertMessagesEn).sort());
    for (const [k, en] of Object.entries(alertMessagesEn)) {
      const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(ph(alertMessagesAr[k as keyof typeof alertMessagesAr]), k).toEqual(ph(en));
    }
  });

  it('every alert type has a title and a message in both languages', () => {
    for (const t of alertTypes) {
      expect(alertMessagesEn).toHaveProperty(`alerts.${t}.title`);
      expect(alertMessagesEn).toHaveProperty(`alerts.${t}.message`);
    }
  });

  it.each([
    ['en', 'A 12345 passed the Al Safa gate (6 AED).'],
    ['ar', 'عبرت المركبة A 12345 بوابة الصفا (6 AED).'],
  ] as const)('renders with localized params (%s)', (locale, text) => {
    const params = { plate: 'A 12345', gate: 'Al Safa', gate_ar: 'الصفا', fee: 6, currency: 'AED' };
    expect(renderMessage('alerts.salik_crossing.message', params, locale)).toBe(text);
  });

  it('keeps unknown placeholders visible and picks the locale from a tag', () => {
    expect(renderMessage('alerts.overspeed.message', { plate: 'X' }, 'en')).toBe(
      'X was driving at {speed} km/h, over the {limit} km/h limit.',
    );
    expect([alertLocale('ar-AE'), alertLocale('en-US'), alertLocale(undefined)]).toEqual(['ar', 'en', 'en']);
    expect(renderMessage('alerts.vehicle_inactive.message', {}, 'en')).toBe(
      'Your vehicle has been inactive for over a month.',
    );
  });
});

describe('rule scope and notification rules', () => {
  it('vehicle and geofence narrowing, recipients attached', () => {
    const rules: AlertRules = {
      ...allOn,
      scope: {
        overspeed: { vehicleIds: ['v2'] },
        geofence_entry: { geofenceIds: ['g2'], recipientUserIds: ['u9'] },
      },
    };
    const e = new AlertEngine('c1', rules);
    expect(feed(e, speeds([150]))).toEqual([]);
    expect(feed(e, speeds([150]), { ...ctx, vehicleId: 'v2' })).toHaveLength(1);
    const base = { vehicleId: 'v1', deviceId: 'd', time: T0, lat: 25, lon: 55, kind: 'entry' as const };
    expect(e.onGeofenceEvent(ctx, { ...base, geofenceId: 'g1' }, { nameEn: 'A' })).toEqual([]);
    expect(
      e.onGeofenceEvent(ctx, { ...base, geofenceId: 'g2' }, { nameEn: 'B' })[0]!.recipientUserIds,
    ).toEqual(['u9']);
  });

  it('bus approaching goes to the passengers of the stop', () => {
    const e = new AlertEngine('c1', {});
    const ev = {
      instanceId: 'i1',
      stopId: 's1',
      stopName: 'Al Wasl',
      passengerIds: ['p1'],
      etaMinutes: 4,
      time: T0,
    };
    expect(e.onNearingStop(ctx, ev)[0]).toMatchObject({
      type: 'bus_approaching',
      passengerIds: ['p1'],
      params: { minutes: 4, stop: 'Al Wasl' },
    });
    expect(e.onNearingStop(ctx, { ...ev, passengerIds: [] })).toEqual([]);
  });

  it('alertRulesFrom maps the API notification rules', () => {
    const rules = alertRulesFrom([
      { type: 'overspeed', status: 'active', speed_limit: 90, vehicle_uuids: ['v1'] },
      { type: 'overspeed', status: 'active', speed_limit: 50 },
      { type: 'low_battery', status: 'inactive', threshold: 10 },
      { type: 'device_offline', status: 'active', duration_minutes: 15 },
      { type: 'document_expiry', status: 'active', days_ahead: 10, documents: ['driver_license'] },
      { type: 'geofence_exit', status: 'active', geofence_uuids: ['g1'] },
      { type: 'trip_missed', status: 'active' },
      { type: 'something_else', status: 'active' },
    ]);
    expect(rules).toEqual({
      overspeed: { enabled: true, limitKmh: 90 },
      offline: { enabled: true, afterMinutes: 15 },
      documentExpiry: { enabled: true, daysAhead: 10, kinds: ['driver_license'] },
      geofence: { entry: false, exit: true },
      scheduledTrip: { delayed: false, missed: true },
      scope: {
        overspeed: { vehicleIds: ['v1'], geofenceIds: [], recipientUserIds: [] },
        geofence_exit: { vehicleIds: [], geofenceIds: ['g1'], recipientUserIds: [] },
      },
    });
    expect(
      alertRulesFrom([
        {
          type: 'overspeed',
          status: 'active',
          speed_limit: 80,
          min_duration_seconds: 30,
          quiet_start: '22:00:00',
          quiet_end: '06:00:00',
        },
        { type: 'idling', status: 'active', duration_minutes: 15 },
      ]),
    ).toEqual({
      overspeed: { enabled: true, limitKmh: 80, minDurationS: 30 },
      idling: { enabled: true, afterMinutes: 15 },
      scope: {
        overspeed: {
          vehicleIds: [],
          geofenceIds: [],
          recipientUserIds: [],
          quiet: { startMin: 1320, endMin: 360 },
        },
      },
    });
    const ownLimitOnly = new AlertEngine(
      'c1',
      alertRulesFrom([{ type: 'overspeed', status: 'active', speed_limit: null }]),
    );
    expect(feed(ownLimitOnly, speeds([200]))).toEqual([]);
    expect(feed(ownLimitOnly, speeds([200]), { ...ctx, vehicleId: 'v3', speedLimitKmh: 120 })).toHaveLength(
      1,
    );
    const docs = new AlertEngine(
      'c1',
      alertRulesFrom([{ type: 'document_expiry', status: 'active', documents: ['driver_license'] }]),
    );
    const doc = { ownerId: 'd1', ownerName: 'Omar', expiresOn: '2026-01-10' };
    expect(
      docs.onDocuments(T0, [
        { ...doc, kind: 'vehicle_insurance' },
        { ...doc, kind: 'driver_license' },
      ]),
    ).toHaveLength(1);
  });
});
