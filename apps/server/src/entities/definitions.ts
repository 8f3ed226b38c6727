import type { EntityDef } from './entity-def';
import { deviceEntity } from './defs/devices';
import { driverEntity } from './defs/drivers';
import { geofenceEntity } from './defs/geofences';
import { notificationRuleEntity } from './defs/notification-rules';
import { branchEntity, schoolEntity, stationEntity } from './defs/organisation';
import { guardianEntity, passengerEntity, supervisorEntity } from './defs/people';
import { scheduledTripEntity, tripEntity, tripsAppEntity } from './defs/trips';
import { vehicleEntity } from './defs/vehicles';

export { IMEI_UNAVAILABLE } from './defs/devices';

/**
 * The managed entities served by the generic CRUD routes (crud.ts), one definition per entity in
 * defs/, grouped as the contract's endpoint groups are: a change to how vehicles are searched or what
 * blocks deleting a school touches that entity's file only. The order is the order the routes are
 * registered in.
 */
export const entityDefs: EntityDef[] = [
  vehicleEntity,
  driverEntity,
  deviceEntity,
  geofenceEntity,
  branchEntity,
  stationEntity,
  schoolEntity,
  passengerEntity,
  guardianEntity,
  supervisorEntity,
  tripEntity,
  scheduledTripEntity,
  tripsAppEntity,
  notificationRuleEntity,
];
