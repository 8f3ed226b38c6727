import { tripStatuses } from '@fleet/api-client';
import type { RecordGroup } from '../app/paths';

export interface RecordConfig {
  /** Endpoint group in @fleet/api-client's table. */
  group: 'trips' | 'tripsApp' | 'deviceTrips' | 'geofenceEvents' | 'salikEvents';
  /** i18n key in the entities namespace. */
  key: 'trips' | 'tripsApp' | 'deviceTrips' | 'geofenceEvents' | 'salik';
  columns: readonly string[];
  details: boolean;
  filters?: Record<string, readonly string[]>;
}

/**
 * Read-only record groups (spec §2). The spec does not show the fields of device trips, geofence and
 * salik events or trips-app records: the columns are the contract's most telling fields.
 */
export const recordConfigs: Record<RecordGroup, RecordConfig> = {
  trips: {
    group: 'trips',
    key: 'trips',
    columns: ['name', 'status', 'start_at', 'end_at', 'description'],
    details: true,
    filters: { status: tripStatuses },
  },
  'trips-app': {
    group: 'tripsApp',
    key: 'tripsApp',
    columns: ['reference', 'status', 'started_at', 'ended_at', 'distance_km', 'passengers_boarded'],
    details: true,
    filters: { status: tripStatuses },
  },
  'device-trips': {
    group: 'deviceTrips',
    key: 'deviceTrips',
    columns: ['device_imei', 'started_at', 'ended_at', 'distance_km', 'max_speed', 'average_speed'],
    details: false,
  },
  'geofences/events': {
    group: 'geofenceEvents',
    key: 'geofenceEvents',
    columns: ['event', 'geofence_name', 'vehicle', 'occurred_at', 'speed'],
    details: true,
    filters: { event: ['entry', 'exit'] },
  },
  'geofences/events/salik': {
    group: 'salikEvents',
    key: 'salik',
    columns: ['gate_name', 'vehicle', 'crossed_at', 'fee', 'currency', 'charged'],
    details: true,
  },
};
