import type { DeviceRef, LocationInput } from '../storage/storage';

/**
 * Gateway hygiene (issue 18): records whose fix time cannot be trusted are stored, but flagged.
 *
 * Two rules decide whether a record is trusted (`valid`):
 * - its fix time is neither before 2000 nor more than GATEWAY_MAX_FUTURE_S in the future
 *   ({@link toLocationInput} in ./records.ts, which also clamps such a time to "now");
 * - its fix time is not before the device's installation date ({@link flagBeforeInstallation}, here).
 *   A tracker moved from another vehicle, or one that uploads its memory from the bench or the previous
 *   vehicle after installation, reports positions that belong to no drive of this vehicle.
 *
 * A flagged record is stored as sent (the fix time is kept: it is a real past time, only not this
 * vehicle's) and acknowledged like any stored record, so the device does not resend it forever. Every read
 * path leaves it out: the latest position (latest_locations is refreshed from valid rows only), the live
 * feed (the gateway publishes valid rows only), route history and the route report (`AND valid`), and the
 * pipeline (a `valid: false` record enters it `ignored`: no trip, stop, idling, geofence, Salik, alert or
 * rollup from it). It stays in `locations` with `valid = false` for audits.
 *
 * Design decisions (the spec is silent):
 * - The installation date is a calendar day (YYYY-MM-DD in the device's `installation_date`), taken as
 *   00:00 UTC of that day: a record from the same day is trusted whatever the company's time zone.
 * - A device without an installation date is not checked.
 * - The date is read with the device (storage.resolveDevice, cached 30 s and cleared on any device
 *   change), so an edit applies to the next frame; records already stored are not re-flagged.
 */
export function flagBeforeInstallation(input: LocationInput, device: DeviceRef): LocationInput {
  const installedAt = device.installedAt;
  if (installedAt != null && input.valid !== false && input.fixTime.getTime() < installedAt)
    input.valid = false;
  return input;
}
