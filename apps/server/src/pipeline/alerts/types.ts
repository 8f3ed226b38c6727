/**
 * The words of the alert engine, shared by its parts and the pipeline service: the alert types, the
 * rules a company configures (from its notification rules, see from-rules.ts), what the engine reads
 * (vehicle context, documents, scheduled-trip events), what it emits (AlertRecord) and the per-vehicle
 * episode state it keeps and persists.
 */
import { notificationRuleTypes } from '@fleet/api-client';
import type { AlertMessageKey } from '../../alerts/messages';

/**
 * Every alert the engine raises: the kinds a company configures as notification rules (the
 * contract's list) and the guardian-facing bus-approaching alert, which has no rule of its own.
 */
export const alertTypes = [...notificationRuleTypes, 'bus_approaching'] as const;

export type AlertType = (typeof alertTypes)[number];

export interface AlertRules {
  readonly overspeed?: {
    readonly enabled: boolean;
    /** Company limit; a vehicle's own `speedLimitKmh` wins. */
    readonly limitKmh: number;
    readonly resetBelowKmh?: number;
    /** Over the limit for at least this long before firing (default 0). */
    readonly minDurationS?: number;
    readonly cooldownS?: number;
    /** Under `limit - resetBelowKmh` at least this long ends the episode (default 60). */
    readonly endAfterS?: number;
  };
  /** Ignition on and standing (under 5 km/h) for at least `afterMinutes`: one alert per idle stretch. */
  readonly idling?: { readonly enabled: boolean; readonly afterMinutes: number };
  readonly emergency?: { readonly enabled: boolean; readonly cooldownS?: number };
  readonly violationOutput?: { readonly enabled: boolean; readonly cooldownS?: number };
  readonly ignition?: { readonly on: boolean; readonly off: boolean };
  readonly powerCut?: { readonly enabled: boolean; readonly minExternalVoltageMv?: number };
  readonly lowBattery?: {
    readonly enabled: boolean;
    readonly minLevelPct?: number;
    readonly minVoltageMv?: number;
  };
  readonly geofence?: { readonly entry: boolean; readonly exit: boolean };
  readonly salik?: { readonly enabled: boolean };
  readonly offline?: { readonly enabled: boolean; readonly afterMinutes: number };
  readonly inactive?: { readonly enabled: boolean; readonly afterDays?: number };
  readonly documentExpiry?: {
    readonly enabled: boolean;
    readonly daysAhead: number;
    /** Only these document kinds (absent or empty = all). */
    readonly kinds?: readonly DocumentKind[];
  };
  readonly scheduledTrip?: { readonly delayed: boolean; readonly missed: boolean };
  /**
   * Optional narrowing per alert type (from the notification rules): only these vehicles / geofences
   * (empty or absent = all), and only these recipients (absent = every user allowed to see the vehicle).
   */
  readonly scope?: Partial<
    Record<
      AlertType,
      {
        readonly vehicleIds?: readonly string[];
        readonly geofenceIds?: readonly string[];
        readonly recipientUserIds?: readonly string[];
        /** Minutes after local midnight; start > end spans midnight. */
        readonly quiet?: { readonly startMin: number; readonly endMin: number };
      }
    >
  >;
}

/** Under this speed (km/h) with the ignition on a vehicle idles (GPS drift of a parked car stays below). */
export const IDLE_SPEED_KMH = 5;

export interface VehicleContext {
  readonly vehicleId: string;
  /** license_plate_number (falls back to the vehicle id in messages) */
  readonly plate?: string;
  readonly speedLimitKmh?: number;
  readonly driverId?: string;
}

export interface AlertRecord {
  readonly type: AlertType;
  readonly companyId: string;
  readonly vehicleId?: string;
  readonly driverId?: string;
  /** The spec's violation value: the speed for overspeed, the fee for Salik, the reading otherwise. */
  readonly violationValue: number | null;
  /** ISO time of the device record (or event) that caused the alert. */
  readonly deviceCreatedAt: string;
  readonly titleKey: AlertMessageKey;
  readonly messageKey: AlertMessageKey;
  readonly params: Readonly<Record<string, string | number>>;
  readonly dedupeKey: string;
  /** Users named by the rule; absent = every user allowed to see the vehicle. */
  readonly recipientUserIds?: readonly string[];
  /**
   * The episode of an alert already sent (same dedupeKey) ended: the store rewrites that notification's
   * text, value and data with the episode's start, end and peak; nobody is notified again.
   */
  readonly update?: true;
  /** For bus_approaching: passengers whose guardians are to be told. */
  readonly passengerIds?: readonly string[];
  /** Extra references for navigation (geofence id, salik event id, trip instance id ...). */
  readonly data?: Readonly<Record<string, string | number>>;
}

export type DocumentKind =
  | 'vehicle_registration'
  | 'vehicle_insurance'
  | 'vehicle_license'
  | 'driver_license'
  | 'driver_national_id'
  | 'driver_residence_permit';

export interface ExpiringDocument {
  readonly kind: DocumentKind;
  readonly ownerId: string;
  /** plate or driver name */
  readonly ownerName: string;
  readonly vehicleId?: string;
  readonly driverId?: string;
  /** 'YYYY-MM-DD' */
  readonly expiresOn: string;
}

export interface ScheduledTripAlertEvent {
  readonly kind: 'delayed' | 'missed';
  readonly instanceId: string;
  readonly tripName: string;
  readonly vehicleId?: string;
  readonly driverId?: string;
  readonly time: number;
  readonly minutesLate?: number;
}

export interface VehicleAlertState {
  lastTime: number;
  overSince?: number;
  overActive: boolean;
  lastOverspeedAt?: number;
  emergencyActive: boolean;
  lastEmergencyAt?: number;
  outputActive: boolean;
  lastOutputAt?: number;
  ignition?: boolean;
  powerCut: boolean;
  lowBattery: boolean;
  /** Open overspeed episode: the alert's dedupe suffix (undefined when the cool-down held it back). */
  overKey?: string;
  overPeak?: number;
  overLimit?: number;
  /** First record back under limit - reset in the open episode. */
  underSince?: number;
  idleSince?: number;
  idleKey?: string;
}
