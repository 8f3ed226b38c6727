/** The people of school transport: passengers, their guardians and the bus supervisors. */
import { entityStatusSchema } from '../schemas/common';
import {
  guardianInputSchema,
  guardianListQuerySchema,
  guardianSchema,
  passengerInputSchema,
  passengerListQuerySchema,
  passengerSchema,
  supervisorInputSchema,
  supervisorListQuerySchema,
  supervisorSchema,
} from '../schemas/people';
import { crud } from './define';

export const passengerCrud = crud('passengers', 'passengers', 'passenger', {
  item: passengerSchema,
  input: passengerInputSchema,
  query: passengerListQuerySchema,
  status: entityStatusSchema,
});

export const guardianCrud = crud('guardians', 'guardians', 'guardian', {
  item: guardianSchema,
  input: guardianInputSchema,
  query: guardianListQuerySchema,
  status: entityStatusSchema,
});

export const supervisorCrud = crud('supervisors', 'supervisors', 'supervisor', {
  item: supervisorSchema,
  input: supervisorInputSchema,
  query: supervisorListQuerySchema,
  status: entityStatusSchema,
});
