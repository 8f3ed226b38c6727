import type { AlertEngine, VehicleContext } from '../alerts/engine';
import type { GeofenceTracker } from '../geofence/tracker';

/** What the service and its parts (incremental-results.ts, recovery.ts) share about a company and a device. */

/** A company's engines and setup on this node (built from the store, dropped on an admin edit). */
export interface CompanyRuntime {
  readonly alerts: AlertEngine;
  readonly geofences: GeofenceTracker;
  readonly fenceNames: Map<string, { nameEn: string; nameAr?: string }>;
  readonly vehicles: Map<string, VehicleContext>;
  /** Vehicles with an open stored scheduled-trip instance (when loaded; the leader adds the ones it creates). */
  readonly tripVehicles: Set<string>;
}

/** A device with the company and vehicle of its latest batch. */
export interface DeviceRef {
  companyUuid: string;
  deviceUuid: string;
  vehicleUuid: string | null;
}
