import { describe, expect, it } from 'vitest';
import { InProcessBus } from '../../realtime/bus';
import { alertRulesFrom } from '../alerts/from-rules';
import { TrackBuilder } from '../common/track-builder';
import { loadSalik } from '../salik/load';
import { MemoryPipelineStore } from './memory-store';
import { PipelineService } from './service';
import { deviceUploader } from './test-messages';

/**
 * One failed flush must not stop the flushes after it. The flushes ran as a promise chain
 * (`flushing = flushing.then(doFlush)`): once one write failed (bench:cluster's day, a duplicate key on
 * PostgreSQL), every later flush was skipped and the trips and rollups of every device froze until the
 * process restarted, while the records went on being stored.
 */
const C = 'company-1';
const D = 'device-1';
const V = 'vehicle-1';
const T0 = Date.UTC(2026, 0, 5, 4, 0);

/** A store whose next `failures` result writes fail, as a database error would. */
class FailingStore extends MemoryPipelineStore {
  failures = 0;
  override async writeResults(...args: Parameters<MemoryPipelineStore['writeResults']>): Promise<void> {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('duplicate key value violates unique constraint "vehicle_rollups_pkey"');
    }
    return super.writeResults(...args);
  }
}

describe('flush after a failed flush', () => {
  it('goes on: the failure is reported once, the next flush writes the day', async () => {
    const now = { t: T0 + 3 * 3_600_000 };
    const store = new FailingStore(() => now.t);
    store.setups.set(C, {
      rules: alertRulesFrom([]),
      geofences: [],
      vehicles: [{ vehicleId: V, plate: 'D 1' }],
    });
    const bus = new InProcessBus((err) => {
      throw err;
    });
    const service = new PipelineService({
      store,
      bus,
      salik: loadSalik(),
      now: () => now.t,
      repairIntervalMs: 0,
    });
    const stop = service.start();
    const records = new TrackBuilder(T0, 25.2, 55.3, { deviceId: D, odometer: true })
      .park(300)
      .drive(900, 60, 90)
      .park(600)
      .drive(900, 50, 45)
      .park(600)
      .records()
      .map((r) => ({ ...r, vehicleId: V }));
    const send = deviceUploader(store, bus, { companyUuid: C, deviceUuid: D, vehicleUuid: V });
    const half = Math.floor(records.length / 2);
    for (let i = 0; i < half; i += 30) await send(records.slice(i, Math.min(i + 30, half)));
    store.failures = 1;
    await expect(service.flush()).rejects.toThrow(/vehicle_rollups_pkey/);
    expect(store.deviceDays.size).toBe(0);

    for (let i = half; i < records.length; i += 30) await send(records.slice(i, i + 30));
    await service.flush();
    const day = store.deviceDays.get(`${D}|2026-01-05`);
    expect(day, 'the flush after the failure wrote the day').toBeDefined();
    expect(day!.trips.length).toBe(2);
    expect(store.rollups.get(`${V}|2026-01-05`)?.daily.trips).toBe(2);
    stop();
  });
});
