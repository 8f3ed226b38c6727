/** Drivers. */
import { entityStatusSchema } from '../schemas/common';
import { driverInputSchema, driverListQuerySchema, driverSchema } from '../schemas/driver';
import { crud } from './define';

export const driverCrud = crud('drivers', 'drivers', 'driver', {
  item: driverSchema,
  input: driverInputSchema,
  query: driverListQuerySchema,
  status: entityStatusSchema,
});
