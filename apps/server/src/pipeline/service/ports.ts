import type { NotificationType, VehicleSummary } from '@fleet/api-client';
import type { AlertRecord, AlertRules, ExpiringDocument, VehicleContext } from '../alerts/engine';
import type { IoMap } from '../common/io';
import type { PositionRecord } from '../common/types';
import type { GeofenceEvent, Geofence } from '../geofence/tracker';
import type { DayRollups } from '../rollups/rollups';
import type { SalikCrossing } from '../salik/detector';
import type { ScheduledTripDef, TripInstance } from '../scheduled/instances';
import type { TripDetection } from '../trips/trips';

/**
 * What the pipeline needs from the rest of the server. Inside the pipeline every entity is named by its
 * public uuid (company, device, vehicle, geofence, user), so rule scopes from the API apply as they are;
 * the storage adapter maps uuids to internal ids.
 */

/** One stored location as the gateway hands it over (LocationInput of the storage module, JSON-safe). */
export interface StoredLocation {
  readonly fixTime: string | number | Date;
  readonly receivedAt?: string | number | Date;
  readonly latitude: number | null;
  readonly longitude: number | null;
  readonly speed?: number | null;
  readonly course?: number | null;
  readonly ignition?: boolean | null;
  readonly isIdle?: boolean | null;
  readonly digitalOutput1?: number | null;
  readonly digitalOutput2?: number | null;
  readonly ioElements?: IoMap;
  /** false = kept as raw only (the gateway's own sanity verdict) */
  readonly valid?: boolean;
}

/** Message on `locations.<companyUuid>.<deviceUuid>` after the batch is durably stored. */
export interface LocationBatchMessage {
  readonly companyUuid: string;
  readonly deviceUuid: string;
  readonly vehicleUuid: string | null;
  /** Generic trackers publish generic-device-location instead of device-location. */
  readonly generic?: boolean;
  readonly records: readonly StoredLocation[];
}

export interface Recipient {
  readonly userUuid: string;
  /** 'en' / 'ar' or a locale tag */
  readonly locale: string;
}

export interface CompanySetup {
  readonly rules: AlertRules;
  readonly geofences: readonly (Geofence & { readonly nameEn: string; readonly nameAr?: string })[];
  readonly vehicles: readonly VehicleContext[];
}

/** A notification as stored, in the API contract's shape (notificationSchema of @fleet/api-client). */
export interface NotificationOut {
  readonly uuid: string;
  readonly type: NotificationType;
  readonly title: string;
  readonly message: string;
  readonly created_at: string;
  readonly device_created_at: string | null;
  readonly vehicle: VehicleSummary | null;
  readonly violation_value: number | string | null;
  readonly read: boolean;
  readonly read_at: string | null;
  readonly icon: string | null;
  readonly data?: Record<string, unknown>;
}

export interface NotificationInput {
  readonly companyUuid: string;
  readonly userUuid: string;
  readonly alert: AlertRecord;
  readonly title: string;
  readonly message: string;
}

/** A scheduled-trip instance as stored, with its revision (bumped by every write). */
export interface StoredTripInstance {
  readonly instance: TripInstance;
  readonly rev: number;
}

/**
 * The store is one port made of one part per engine; the SQL adapter (sql-store.ts) is assembled from
 * one store per part (sql/*.ts), the in-memory one (memory-store.ts) implements them all in one class.
 */

/** Rules, geofences and vehicles of a company (sql/company-setup.ts). */
export interface CompanySetupStore {
  companySetup(companyUuid: string): Promise<CompanySetup>;
}

/** The stored records (sql/locations.ts). */
export interface LocationStore {
  /** Records of a device with device time in [from, to), valid and invalid (invalid ones come back `ignored`). */
  readLocations(deviceUuid: string, from: number, to: number): Promise<PositionRecord[]>;
}

/** Trips, stops, idling and rollups: what the incremental pipeline writes (sql/results.ts, trips.ts, rollups.ts). */
export interface ResultStore {
  /** Replaces the trips, stops and idling periods that start on `date` for the device. */
  replaceDeviceDay(
    ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null },
    date: string,
    detection: TripDetection,
  ): Promise<void>;
  /** Replaces the rollups (daily + hourly) of a vehicle's day. */
  replaceRollups(ref: { companyUuid: string; vehicleUuid: string }, day: DayRollups): Promise<void>;
  /** Device times of the vehicle's violation alerts in [from, to) (for rollup counts). */
  violationTimes(vehicleUuid: string, from: number, to: number): Promise<number[]>;
  /** `violationTimes` of several vehicles in one query (vehicles without any are absent). */
  violationTimesMany(
    vehicleUuids: readonly string[],
    from: number,
    to: number,
  ): Promise<Map<string, number[]>>;
  /**
   * One flush of the incremental pipeline: replaces the trips/stops/idling of these device-days and the
   * rollups (with fuel events) of these vehicle-days, in one transaction of multi-row statements.
   */
  writeResults(
    trips: readonly {
      ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null };
      date: string;
      detection: TripDetection;
    }[],
    rollups: readonly { ref: { companyUuid: string; vehicleUuid: string }; day: DayRollups }[],
  ): Promise<void>;
}

/** Geofence entries and exits (sql/geofence-events.ts). */
export interface GeofenceEventStore {
  /**
   * Stores geofence events; an event already stored (same vehicle, geofence, time and kind: records
   * gone through again after a worker died before saving its state) is skipped. Returns how many
   * were new.
   */
  insertGeofenceEvents(companyUuid: string, events: readonly GeofenceEvent[]): Promise<number>;
}

/** Salik gate crossings (sql/salik-events.ts). */
export interface SalikEventStore {
  /** Stores Salik crossings; a crossing already stored (same vehicle, gate and time) is skipped. Returns how many were new. */
  insertSalikEvents(companyUuid: string, crossings: readonly SalikCrossing[]): Promise<number>;
}

/** Who is told of an alert, the notifications, and the clock alerts' inputs (sql/alerts.ts). */
export interface AlertStore {
  /** Users allowed to see the vehicle (or the whole company when undefined). */
  recipients(companyUuid: string, vehicleUuid: string | undefined): Promise<Recipient[]>;
  /** Guardians of these passengers, as users to notify. */
  guardianRecipients(companyUuid: string, passengerIds: readonly string[]): Promise<Recipient[]>;
  /** Inserts notifications; an (alert dedupeKey, user) pair already stored is skipped (not returned). */
  insertNotifications(
    rows: readonly NotificationInput[],
  ): Promise<(NotificationOut & { userUuid: string })[]>;
  /** Last device time per vehicle of the company (for offline / inactive). */
  lastSeen(companyUuid: string): Promise<{ vehicleUuid: string; lastSeen: number | undefined }[]>;
  expiringDocuments(companyUuid: string): Promise<ExpiringDocument[]>;
  /**
   * Dedupe keys of the clock-driven alerts (offline, inactive, document expiry) already notified in
   * the company, without the company prefix: a node taking over the clock work starts from them.
   */
  firedClockAlerts(companyUuid: string): Promise<string[]>;
}

/** Scheduled trips and their instances (sql/scheduled.ts). */
export interface ScheduledTripStore {
  scheduledTrips(companyUuid: string): Promise<ScheduledTripDef[]>;
  saveTripInstances(instances: readonly TripInstance[]): Promise<void>;
  /**
   * Scheduled-trip instances are shared by every node (the clock-work leader moves them on time, the
   * worker owning the vehicle's partition on positions), so the stored row is their only state:
   * `createTripInstances` stores instances not stored yet and leaves a stored one as it is (revision 0).
   */
  createTripInstances(instances: readonly TripInstance[]): Promise<void>;
  /** Stored instances of the company planned to start at or after `sinceMs` (any status). */
  tripInstancesSince(companyUuid: string, sinceMs: number): Promise<StoredTripInstance[]>;
  /** Open (pending, delayed, started) stored instances of a vehicle. */
  openVehicleTripInstances(vehicleUuid: string): Promise<StoredTripInstance[]>;
  /** Vehicles of the company with an open stored instance. */
  openTripVehicles(companyUuid: string): Promise<string[]>;
  /**
   * Writes the instance if its stored revision is still `rev` (it becomes `rev + 1`); false when
   * another node wrote it first (the caller reloads and applies its change again).
   */
  updateTripInstance(instance: TripInstance, rev: number): Promise<boolean>;
}

/** The engines' saved state per device, for scale-out workers (sql/device-state.ts). */
export interface DeviceStateStore {
  /** Stored pipeline states (opaque JSON) of these devices; absent ones are not in the map. */
  loadDeviceStates(deviceUuids: readonly string[]): Promise<Map<string, unknown>>;
  /**
   * Stores device states; a state is not replaced by one whose `lastTime` is older (two saves of
   * one device racing).
   */
  saveDeviceStates(
    rows: readonly { deviceUuid: string; lastTime: number | null; state: unknown }[],
  ): Promise<void>;
}

export interface PipelineStore
  extends
    CompanySetupStore,
    LocationStore,
    ResultStore,
    GeofenceEventStore,
    SalikEventStore,
    AlertStore,
    ScheduledTripStore,
    DeviceStateStore {}
