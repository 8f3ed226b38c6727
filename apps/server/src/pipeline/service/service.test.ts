import { describe, expect, it } from 'vitest';
import { InProcessBus, subjects } from '../../realtime/bus';
import type { RealtimeEnvelope } from '../../realtime/hub';
import { alertRulesFrom } from '../alerts/from-rules';
import { localizedAlertText } from '../../alerts/messages';
import { destination } from '../common/geo';
import { TrackBuilder } from '../common/track-builder';
import type { PositionRecord } from '../common/types';
import { loadSalik } from '../salik/load';
import { MemoryPipelineStore } from './memory-store';
import type { LocationBatchMessage } from './ports';
import { PipelineService } from './service';
import { storedLocation } from './test-messages';

const C = 'company-1';
const D = 'device-1';
const V = 'vehicle-1';
const T0 = Date.UTC(2026, 0, 5, 4, 0); // Monday 08:00 in Dubai
const salik = loadSalik();
const garhoud = salik.gates.find((g) => g.code === 'garhoud')!;
const start = destination(garhoud.lat, garhoud.lon, garhoud.roadBearingDeg + 180, 2000);
const end = destination(garhoud.lat, garhoud.lon, garhoud.roadBearingDeg, 5000);

const stored = storedLocation;

function setup(now: { t: number }) {
  const store = new MemoryPipelineStore(() => now.t);
  store.setups.set(C, {
    rules: alertRulesFrom(
      [
        'overspeed',
        'ignition_on',
        'ignition_off',
        'geofence_entry',
        'geofence_exit',
        'salik_crossing',
        'device_offline',
        'trip_missed',
      ].map((type) => ({ type, status: 'active', speed_limit: 100, duration_minutes: 30 })),
    ),
    geofences: [
      {
        id: 'depot',
        nameEn: 'Depot',
        nameAr: 'المستودع',
        shape: { kind: 'circle', lat: start.lat, lon: start.lon, radiusM: 300 },
        tracking: ['entry', 'exit'],
      },
      {
        id: 'site',
        nameEn: 'Site',
        shape: { kind: 'circle', lat: end.lat, lon: end.lon, radiusM: 400 },
        tracking: ['entry', 'exit'],
      },
    ],
    vehicles: [{ vehicleId: V, plate: 'D 12345' }],
  });
  store.users.set(C, [
    { userUuid: 'user-en', locale: 'en-US' },
    { userUuid: 'user-ar', locale: 'ar' },
  ]);
  const bus = new InProcessBus((err) => {
    throw err;
  });
  const realtime: RealtimeEnvelope[] = [];
  bus.subscribe<RealtimeEnvelope>('realtime.>', (m) => {
    realtime.push(m);
  });
  const errors: unknown[] = [];
  const service = new PipelineService({
    store,
    bus,
    salik,
    now: () => now.t,
    onError: (e) => errors.push(e),
  });
  const stop = service.start();
  return { store, bus, realtime, service, stop, errors };
}

/** Depot -> 2 km -> Garhoud gate -> 4.3 km at 130 km/h -> site, 10 s fixes, odometer on. */
function route(): PositionRecord[] {
  return new TrackBuilder(T0, start.lat, start.lon, { deviceId: D, odometer: true })
    .park(300)
    .idle(60)
    .drive(120, 60, garhoud.roadBearingDeg)
    .drive(120, 130, garhoud.roadBearingDeg)
    .drive(60, 50, garhoud.roadBearingDeg)
    .park(600)
    .records()
    .map((r) => ({ ...r, vehicleId: V }));
}

async function upload(bus: InProcessBus, store: MemoryPipelineStore, records: PositionRecord[], size = 30) {
  for (let i = 0; i < records.length; i += size) {
    const chunk = records.slice(i, i + size);
    store.addLocations(D, chunk); // what the storage module does before publishing
    const msg: LocationBatchMessage = {
      companyUuid: C,
      deviceUuid: D,
      vehicleUuid: V,
      records: chunk.map(stored),
    };
    await bus.publish(subjects.locations(C, D), msg);
  }
}

describe('PipelineService (simulated vehicle, in-process bus)', () => {
  it('streams locations, geofence and Salik events, alerts as notifications in each language', async () => {
    const now = { t: T0 };
    const { store, bus, realtime, stop, errors } = setup(now);
    const records = route();
    await upload(bus, store, records);
    stop();
    expect(errors).toEqual([]);

    // Live positions are the gateway's to publish (one publisher, one idle rule: gateway/records.ts);
    // the pipeline publishes only what it derives (notifications).
    expect(realtime.filter((m) => m.event === 'device-location')).toEqual([]);

    expect(store.geofenceEvents.map((e) => `${e.kind}:${e.geofenceId}`)).toEqual([
      'exit:depot',
      'entry:site',
    ]);
    expect(store.salikEvents).toHaveLength(1);
    expect(store.salikEvents[0]).toMatchObject({
      gateCode: 'garhoud',
      directionName: 'to_deira',
      fee: 6,
      currency: 'AED',
    });

    const en = store.notifications.filter((n) => n.userUuid === 'user-en');
    expect(en.map((n) => n.type)).toEqual([
      'ignition_on',
      'geofence_exit',
      'salik_crossing',
      'overspeed',
      'geofence_entry',
      'ignition_off',
    ]);
    const overspeed = en.find((n) => n.type === 'overspeed')!;
    expect(overspeed).toMatchObject({ title: 'Overspeed', violation_value: 130, read: false });
    // the drive went back under the limit, so the episode's end rewrote the one notification (no second one)
    expect(overspeed.message).toBe('D 12345 drove over the 100 km/h limit for 2 min, at up to 130 km/h.');
    expect(overspeed.data).toMatchObject({ peakValue: 130 });
    const ar = store.notifications.find((n) => n.userUuid === 'user-ar' && n.type === 'salik_crossing')!;
    expect(ar.message).toBe('عبرت المركبة D 12345 بوابة القرهود (6 AED).');
    const pushed = realtime.filter((m) => m.event === 'notification');
    expect(pushed).toHaveLength(12);
    expect(pushed.every((m) => m.user_uuid === m.path)).toBe(true);
    // What goes to the realtime hub carries the alert's keys, so a socket opened in Arabic gets the
    // English user's alert in Arabic (the toast follows the UI, not the language saved on the user).
    const salikEn = pushed.find(
      (m) => m.user_uuid === 'user-en' && (m.data as { type: string }).type === 'salik_crossing',
    )!;
    expect(localizedAlertText((salikEn.data as { data?: unknown }).data, 'ar')?.message).toBe(
      'عبرت المركبة D 12345 بوابة القرهود (6 AED).',
    );
  });

  it('a vehicle added while the company is cached is named by its plate in its first alerts', async () => {
    const now = { t: T0 };
    const { store, bus, stop, errors } = setup(now);
    await upload(bus, store, route().slice(0, 10)); // the company's setup is read and cached
    // An admin adds a vehicle with a new device; its first drive comes before the minute's reload.
    const setupNow = store.setups.get(C)!;
    store.setups.set(C, {
      ...setupNow,
      vehicles: [...setupNow.vehicles, { vehicleId: 'vehicle-2', plate: 'K 777' }],
    });
    const records = route().map((r) => ({ ...r, deviceId: 'device-2', vehicleId: 'vehicle-2' }));
    for (let i = 0; i < records.length; i += 30) {
      const chunk = records.slice(i, i + 30);
      store.addLocations('device-2', chunk);
      await bus.publish(subjects.locations(C, 'device-2'), {
        companyUuid: C,
        deviceUuid: 'device-2',
        vehicleUuid: 'vehicle-2',
        records: chunk.map(stored),
      } satisfies LocationBatchMessage);
    }
    stop();
    expect(errors).toEqual([]);
    const overspeed = store.notifications.find((n) => n.userUuid === 'user-en' && n.type === 'overspeed')!;
    expect(overspeed.message).toBe('K 777 drove over the 100 km/h limit for 2 min, at up to 130 km/h.');
  });

  it('flush computes the trip and the rollups from stored records; a replayed batch changes nothing', async () => {
    const now = { t: T0 };
    const { store, bus, service, stop } = setup(now);
    const records = route();
    await upload(bus, store, records);
    await upload(bus, store, records.slice(40, 70)); // a device re-sending an unacknowledged batch
    await service.flush();
    stop();
    const day = store.deviceDays.get(`${D}|2026-01-05`)!;
    expect(day.trips).toHaveLength(1);
    const trip = day.trips[0]!;
    expect(trip.distanceSource).toBe('odometer');
    expect(trip.distanceM).toBeGreaterThan(7_100);
    expect(trip.distanceM).toBeLessThan(7_200);
    expect(trip.maxSpeedKmh).toBe(130);
    expect(trip.idleS).toBe(60);
    const roll = store.rollups.get(`${V}|2026-01-05`)!;
    expect(roll.daily.trips).toBe(1);
    expect(roll.daily.violations).toBe(1);
    expect(roll.daily.distanceM).toBeGreaterThan(7_100);
    expect(store.salikEvents).toHaveLength(1);
    expect(store.notifications.filter((n) => n.type === 'overspeed')).toHaveLength(2); // one per user
  });

  it('an hour of buffered records uploaded late and shuffled gives the same trips as streaming', async () => {
    const streamed = setup({ t: T0 });
    const records = route();
    await upload(streamed.bus, streamed.store, records);
    await streamed.service.flush();
    const buffered = setup({ t: T0 + 3_600_000 });
    const reversed = [...records].reverse();
    await upload(buffered.bus, buffered.store, reversed, 45);
    await buffered.service.flush();
    expect(buffered.store.deviceDays.get(`${D}|2026-01-05`)).toEqual(
      streamed.store.deviceDays.get(`${D}|2026-01-05`),
    );
    expect(buffered.store.rollups.get(`${V}|2026-01-05`)!.daily.distanceM).toBe(
      streamed.store.rollups.get(`${V}|2026-01-05`)!.daily.distanceM,
    );
  });

  it('bad fixes are kept raw but do not move the vehicle or fire alerts', async () => {
    const now = { t: T0 };
    const { store, bus, stop } = setup(now);
    const good = route().slice(0, 20);
    const bad: PositionRecord = {
      ...good[19]!,
      id: 'bad',
      time: good[19]!.time + 5_000,
      lat: 0,
      lon: 0,
      speed: 200,
    };
    const future: PositionRecord = {
      ...good[19]!,
      id: 'fut',
      time: good[19]!.time + 3_600_000,
      receivedAt: good[19]!.time,
      speed: 200,
    };
    await upload(bus, store, [...good, bad, future], 50);
    stop();
    expect(store.notifications.filter((n) => n.type === 'overspeed')).toEqual([]);
  });

  it('tick: offline alert, scheduled trip instances, missed trip', async () => {
    const now = { t: T0 };
    const { store, bus, service, stop } = setup(now);
    store.trips.set(C, [
      {
        id: 'st-1',
        companyId: C,
        name: 'Morning run',
        type: 'one_way',
        departure: { startTime: '09:00', endTime: '10:00' },
        stops: [{ id: 's1', name: 'Gate', lat: 25.3, lon: 55.4, passengerIds: ['p1'] }],
        vehicleId: V,
      },
    ]);
    await upload(bus, store, route());
    now.t = T0 + 20 * 60_000;
    const first = await service.tick(C);
    expect(first.alerts).toEqual([]);
    expect(service.tripInstances().map((i) => [i.id, i.status])).toEqual([
      ['st-1:2026-01-05:departure', 'pending'],
    ]);
    now.t = T0 + 2.5 * 3_600_000; // 10:30: 2 h since the last fix, trip never started
    const later = await service.tick(C);
    expect(later.alerts.map((a) => a.type).sort()).toEqual(['device_offline', 'trip_missed']);
    expect(store.instances.get('st-1:2026-01-05:departure')!.status).toBe('missed');
    expect((await service.tick(C)).alerts).toEqual([]);
    stop();
  });
});
