import type { VehicleAlertState } from '../alerts/engine';
import type { PositionRecord } from '../common/types';
import type { VehicleGeofenceState } from '../geofence/tracker';
import type { DeviceIncState } from '../incremental/device';
import type { SalikDetector, VehicleSalikState } from '../salik/detector';
import { initialLiveSanityState, type LiveSanityState } from '../sanity/sanity';
import type { IncrementalResults } from './incremental-results';
import type { PipelineStore } from './ports';
import type { CompanyRuntime, DeviceRef } from './runtime';

/**
 * Cluster recovery of the pipeline (scale-out workers, `persistState`): each device's engine state
 * (sanity reference, last processed fix, alert episodes, geofence visits, Salik anchors, the
 * incremental folds) is saved in the store before every ack (`saveStates`) and put back the first
 * time a node handles the device after start-up or a partition take-over (`restoreDevice`), with the
 * stored records the previous owner left unprocessed. A batch that fails makes the device start again
 * from its stored state (`forget`).
 *
 * The state machine per device: not loaded -> (prepareDevices) restoring -> (restoreDevice, first
 * batch) loaded -> (resetDeviceStates: partitions taken over, or forget: a failed batch) not loaded.
 * Nothing of it runs without `persistState` (embedded mode keeps the state in memory only).
 *
 * Split out of service.ts (issue 22) as it was, so that the happy path there reads plainly; the
 * engines' per-device maps stay the service's and are shared here by reference.
 */

/** The engines' per-device state the service keeps (shared with the recovery). */
export interface EngineStates {
  readonly sanity: Map<string, LiveSanityState>;
  readonly lastTime: Map<string, number>;
  readonly salik: SalikDetector;
}

/** What is persisted per device (JSON). */
interface DeviceState {
  readonly lastTime: number | null;
  readonly sanity: LiveSanityState;
  readonly vehicleUuid: string | null;
  readonly alerts?: VehicleAlertState;
  readonly geofence?: VehicleGeofenceState;
  readonly salik?: VehicleSalikState;
  /** The incremental trip/rollup folds (absent: built from the stored records on the next flush). */
  readonly inc?: DeviceIncState;
}

export class DeviceStateRecovery {
  /** persistState: devices whose state was read from the store (or found absent) since the last reset. */
  private readonly loaded = new Set<string>();
  /** persistState: states read by prepareDevices, applied (and the gap replayed) by the next batch. */
  private readonly restoring = new Map<string, DeviceState | null>();
  /** persistState: devices processed since the last saveStates, with their vehicle. */
  private readonly unsaved = new Map<string, { companyUuid: string; vehicleUuid: string | null }>();
  private saving: Promise<void> = Promise.resolve();
  private readonly sanity: Map<string, LiveSanityState>;
  private readonly lastTime: Map<string, number>;
  private readonly salik: SalikDetector;

  constructor(
    private readonly opts: { readonly persistState?: boolean | undefined },
    private readonly store: PipelineStore,
    engines: EngineStates,
    private readonly results: IncrementalResults,
    private readonly company: (companyUuid: string) => Promise<CompanyRuntime>,
  ) {
    this.sanity = engines.sanity;
    this.lastTime = engines.lastTime;
    this.salik = engines.salik;
  }

  /**
   * persistState: reads the stored states of these devices that are not loaded yet, in one query
   * (the worker calls it with the devices of a read batch before announcing them).
   */
  async prepareDevices(deviceUuids: readonly string[]): Promise<void> {
    if (!this.opts.persistState) return;
    const unloaded = deviceUuids.filter((d) => !this.loaded.has(d) && !this.restoring.has(d));
    if (unloaded.length === 0) return;
    const rows = await this.store.loadDeviceStates(unloaded);
    for (const d of unloaded) this.restoring.set(d, (rows.get(d) as DeviceState | undefined) ?? null);
  }

  /**
   * Puts a device's stored state back into the engines the first time this node handles it (or after
   * a reset) and returns the stored records it has to go through first: the ones after the state's
   * last processed fix and before this batch. A worker that died between storing records and running
   * them through the pipeline left exactly those; the state is saved before every ack, so nothing the
   * previous owner processed is processed again (no duplicate alert) and nothing is skipped.
   */
  async restoreDevice(
    rt: CompanyRuntime,
    ref: DeviceRef,
    firstTime: number | undefined,
  ): Promise<PositionRecord[]> {
    const { deviceUuid, vehicleUuid } = ref;
    if (this.loaded.has(deviceUuid)) return [];
    if (!this.restoring.has(deviceUuid)) await this.prepareDevices([deviceUuid]);
    const state = this.restoring.get(deviceUuid) ?? null;
    this.restoring.delete(deviceUuid);
    this.loaded.add(deviceUuid);
    this.sanity.set(deviceUuid, state?.sanity ?? initialLiveSanityState);
    if (state?.lastTime != null) this.lastTime.set(deviceUuid, state.lastTime);
    else this.lastTime.delete(deviceUuid);
    const vehicle = state?.vehicleUuid ?? vehicleUuid;
    if (vehicle) {
      rt.alerts.setVehicleState(vehicle, state?.alerts);
      rt.geofences.setState(vehicle, state?.geofence);
      this.salik.setState(vehicle, state?.salik);
    }
    this.results.adopt(ref, state?.inc);
    const incLast = state?.inc?.last;
    if (incLast != null && firstTime !== undefined && (state?.lastTime == null || incLast < state.lastTime)) {
      // Stored records the folds have not seen (the engines skip what they already processed).
      return this.store.readLocations(deviceUuid, incLast + 1, firstTime);
    }
    if (state?.lastTime == null || firstTime === undefined || firstTime <= state.lastTime + 1) return [];
    return this.store.readLocations(deviceUuid, state.lastTime + 1, firstTime);
  }

  /**
   * persistState: writes the state of every device processed since the last call (one statement).
   * The worker calls it after announcing a read batch and before acking it.
   */
  saveStates(): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (!this.opts.persistState || this.unsaved.size === 0) return;
      const batch = [...this.unsaved];
      this.unsaved.clear();
      const rows = [];
      for (const [deviceUuid, { companyUuid, vehicleUuid }] of batch) {
        const rt = await this.company(companyUuid).catch(() => null);
        const inc = this.results.foldsOf(deviceUuid);
        const state: DeviceState = {
          lastTime: this.lastTime.get(deviceUuid) ?? null,
          sanity: this.sanity.get(deviceUuid) ?? initialLiveSanityState,
          vehicleUuid,
          ...(inc ? { inc: inc.state } : {}),
          ...(vehicleUuid && rt
            ? {
                alerts: rt.alerts.vehicleState(vehicleUuid),
                geofence: rt.geofences.stateOf(vehicleUuid),
                salik: this.salik.stateOf(vehicleUuid),
              }
            : {}),
        };
        rows.push({ deviceUuid, lastTime: state.lastTime, state });
      }
      try {
        await this.store.saveDeviceStates(rows);
      } catch (err) {
        for (const [d, v] of batch) if (!this.unsaved.has(d)) this.unsaved.set(d, v);
        throw err;
      }
    });
    return this.saving;
  }

  /**
   * persistState: forgets what this node holds of every device's state (the worker took over
   * partitions: their devices' state is read from the store on their next batch).
   */
  resetDeviceStates(): void {
    this.loaded.clear();
    this.restoring.clear();
  }

  /**
   * A batch of the device failed: its next batch starts again from its stored state and goes
   * through the records of this one too (they are stored), instead of skipping them.
   */
  forget(deviceUuid: string): void {
    this.loaded.delete(deviceUuid);
  }

  /** persistState: the device was processed (its state is saved by the next saveStates). */
  processed(deviceUuid: string, companyUuid: string, vehicleUuid: string | null): void {
    this.unsaved.set(deviceUuid, { companyUuid, vehicleUuid });
  }
}
