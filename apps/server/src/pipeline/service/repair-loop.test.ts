import { describe, expect, it } from 'vitest';
import { InProcessBus } from '../../realtime/bus';
import { alertRulesFrom } from '../alerts/from-rules';
import { TrackBuilder } from '../common/track-builder';
import { loadSalik } from '../salik/load';
import { MemoryPipelineStore } from './memory-store';
import { PipelineService } from './service';
import { deviceUploader } from './test-messages';

/**
 * A late record past the repair horizon whose day the live folds still cover: the background repair
 * rebuilds the folds, and that rebuild must not queue the same repair again. It did (found with
 * bench:soak, whose simulated day lies months before the wall clock, so every late record is past
 * the horizon): every device with one late record was repaired every 30 s for the rest of the run,
 * each time re-reading its day, so the cost per record grew through the day.
 */
const C = 'company-1';
const D = 'device-1';
const V = 'vehicle-1';
const T0 = Date.UTC(2026, 0, 5, 4, 0);

describe('background repair', () => {
  it('runs once for a late record past the horizon, not again after its own rebuild', async () => {
    const now = { t: T0 + 10 * 86_400_000 }; // the records are ten days old: past the 48 h horizon
    const store = new MemoryPipelineStore(() => now.t);
    store.setups.set(C, {
      rules: alertRulesFrom([]),
      geofences: [],
      vehicles: [{ vehicleId: V, plate: 'D 1' }],
    });
    const bus = new InProcessBus((err) => {
      throw err;
    });
    const errors: unknown[] = [];
    const service = new PipelineService({
      store,
      bus,
      salik: loadSalik(),
      now: () => now.t,
      onError: (e) => errors.push(e),
      repairIntervalMs: 0,
    });
    const stop = service.start();
    const records = new TrackBuilder(T0, 25.2, 55.3, { deviceId: D, odometer: true })
      .park(300)
      .drive(600, 60, 90)
      .park(600)
      .records()
      .map((r) => ({ ...r, vehicleId: V }));
    const send = deviceUploader(store, bus, { companyUuid: C, deviceUuid: D, vehicleUuid: V });
    // In order, except one record that comes after the rest.
    const lateOne = records.splice(60, 1);
    for (let i = 0; i < records.length; i += 30) await send(records.slice(i, i + 30));
    await service.flush();
    await send(lateOne);
    await service.flush();
    expect(service.pendingRepairs()).toBe(1);
    expect(await service.runRepairs()).toBe(1);
    await service.flush();
    expect(service.pendingRepairs()).toBe(0);
    expect(await service.runRepairs()).toBe(0);
    stop();
    expect(errors).toEqual([]);
  });
});
