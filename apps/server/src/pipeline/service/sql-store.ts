import type { Queryable } from '../../storage/db';
import type { ExpiringDocument } from '../alerts/engine';
import type { PositionRecord } from '../common/types';
import type { GeofenceEvent } from '../geofence/tracker';
import type { DayRollups } from '../rollups/rollups';
import type { SalikCrossing } from '../salik/detector';
import type { ScheduledTripDef, TripInstance } from '../scheduled/instances';
import type { TripDetection } from '../trips/trips';
import type {
  CompanySetup,
  NotificationInput,
  NotificationOut,
  PipelineStore,
  Recipient,
  StoredTripInstance,
} from './ports';
import { SqlAlertStore } from './sql/alerts';
import { SqlCompanySetupStore } from './sql/company-setup';
import { SqlDeviceStateStore } from './sql/device-state';
import { SqlGeofenceEventStore } from './sql/geofence-events';
import { SqlLocationStore } from './sql/locations';
import { SqlResultStore } from './sql/results';
import type { RollupDayWrite } from './sql/rollups';
import { SqlSalikEventStore } from './sql/salik-events';
import { SqlScheduledTripStore } from './sql/scheduled';
import type { TripDayWrite } from './sql/trips';

export { toShape } from './sql/company-setup';
export { gateUuid } from './sql/salik-events';

/**
 * PipelineStore over the server's PostgreSQL schema (PGlite or pg: same SQL), assembled from one store
 * per engine, each in its own file under sql/ with the mapping decisions of its tables:
 *
 *  - CompanySetupStore: sql/company-setup.ts (notification_rules, geofences, vehicles, drivers; read)
 *  - LocationStore: sql/locations.ts (locations; read)
 *  - ResultStore: sql/results.ts, one transaction per flush over sql/trips.ts (device_trips: trips,
 *    stops, idling) and sql/rollups.ts (vehicle_rollups, fuel_events; violation times from notifications)
 *  - GeofenceEventStore: sql/geofence-events.ts (geofence_events)
 *  - SalikEventStore: sql/salik-events.ts (salik_events)
 *  - AlertStore: sql/alerts.ts (notifications; recipients from users, memberships, guardians; clock
 *    alert inputs from latest_locations, vehicles, drivers)
 *  - ScheduledTripStore: sql/scheduled.ts (scheduled_trips and their stops; instances in trips)
 *  - DeviceStateStore: sql/device-state.ts (pipeline_device_state)
 *
 * This class only hands each call to its store. It stays one object with every method on its
 * prototype, so callers keep one `store` and tests can wrap a single method (`Object.create(store)`
 * with an override) as before the split.
 */
export class SqlPipelineStore implements PipelineStore {
  private readonly setup: SqlCompanySetupStore;
  private readonly locations: SqlLocationStore;
  private readonly results: SqlResultStore;
  private readonly geofenceEvents: SqlGeofenceEventStore;
  private readonly salikEvents: SqlSalikEventStore;
  private readonly alerts: SqlAlertStore;
  private readonly scheduled: SqlScheduledTripStore;
  private readonly deviceStates: SqlDeviceStateStore;

  /** `rememberWrites`: this process is the only writer of trips and rollups (embedded; see write-changed.ts). */
  constructor(db: Queryable, opts: { rememberWrites?: boolean } = {}) {
    this.setup = new SqlCompanySetupStore(db);
    this.locations = new SqlLocationStore(db);
    this.results = new SqlResultStore(db, opts);
    this.geofenceEvents = new SqlGeofenceEventStore(db);
    this.salikEvents = new SqlSalikEventStore(db);
    this.alerts = new SqlAlertStore(db);
    this.scheduled = new SqlScheduledTripStore(db);
    this.deviceStates = new SqlDeviceStateStore(db);
  }

  companySetup(companyUuid: string): Promise<CompanySetup> {
    return this.setup.companySetup(companyUuid);
  }

  readLocations(deviceUuid: string, from: number, to: number): Promise<PositionRecord[]> {
    return this.locations.readLocations(deviceUuid, from, to);
  }

  replaceDeviceDay(
    ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null },
    date: string,
    detection: TripDetection,
  ): Promise<void> {
    return this.results.replaceDeviceDay(ref, date, detection);
  }

  replaceRollups(ref: { companyUuid: string; vehicleUuid: string }, day: DayRollups): Promise<void> {
    return this.results.replaceRollups(ref, day);
  }

  writeResults(trips: readonly TripDayWrite[], rollups: readonly RollupDayWrite[]): Promise<void> {
    return this.results.writeResults(trips, rollups);
  }

  violationTimes(vehicleUuid: string, from: number, to: number): Promise<number[]> {
    return this.results.violationTimes(vehicleUuid, from, to);
  }

  violationTimesMany(
    vehicleUuids: readonly string[],
    from: number,
    to: number,
  ): Promise<Map<string, number[]>> {
    return this.results.violationTimesMany(vehicleUuids, from, to);
  }

  insertGeofenceEvents(companyUuid: string, events: readonly GeofenceEvent[]): Promise<number> {
    return this.geofenceEvents.insertGeofenceEvents(companyUuid, events);
  }

  insertSalikEvents(companyUuid: string, crossings: readonly SalikCrossing[]): Promise<number> {
    return this.salikEvents.insertSalikEvents(companyUuid, crossings);
  }

  recipients(companyUuid: string, vehicleUuid: string | undefined): Promise<Recipient[]> {
    return this.alerts.recipients(companyUuid, vehicleUuid);
  }

  guardianRecipients(companyUuid: string, passengerIds: readonly string[]): Promise<Recipient[]> {
    return this.alerts.guardianRecipients(companyUuid, passengerIds);
  }

  insertNotifications(
    rows: readonly NotificationInput[],
  ): Promise<(NotificationOut & { userUuid: string })[]> {
    return this.alerts.insertNotifications(rows);
  }

  lastSeen(companyUuid: string): Promise<{ vehicleUuid: string; lastSeen: number | undefined }[]> {
    return this.alerts.lastSeen(companyUuid);
  }

  expiringDocuments(companyUuid: string): Promise<ExpiringDocument[]> {
    return this.alerts.expiringDocuments(companyUuid);
  }

  firedClockAlerts(companyUuid: string): Promise<string[]> {
    return this.alerts.firedClockAlerts(companyUuid);
  }

  scheduledTrips(companyUuid: string): Promise<ScheduledTripDef[]> {
    return this.scheduled.scheduledTrips(companyUuid);
  }

  saveTripInstances(instances: readonly TripInstance[]): Promise<void> {
    return this.scheduled.saveTripInstances(instances);
  }

  createTripInstances(instances: readonly TripInstance[]): Promise<void> {
    return this.scheduled.createTripInstances(instances);
  }

  tripInstancesSince(companyUuid: string, sinceMs: number): Promise<StoredTripInstance[]> {
    return this.scheduled.tripInstancesSince(companyUuid, sinceMs);
  }

  openVehicleTripInstances(vehicleUuid: string): Promise<StoredTripInstance[]> {
    return this.scheduled.openVehicleTripInstances(vehicleUuid);
  }

  openTripVehicles(companyUuid: string): Promise<string[]> {
    return this.scheduled.openTripVehicles(companyUuid);
  }

  updateTripInstance(instance: TripInstance, rev: number): Promise<boolean> {
    return this.scheduled.updateTripInstance(instance, rev);
  }

  loadDeviceStates(deviceUuids: readonly string[]): Promise<Map<string, unknown>> {
    return this.deviceStates.loadDeviceStates(deviceUuids);
  }

  saveDeviceStates(
    rows: readonly { deviceUuid: string; lastTime: number | null; state: unknown }[],
  ): Promise<void> {
    return this.deviceStates.saveDeviceStates(rows);
  }
}
