/** Schools. */
import { entityStatusSchema } from '../schemas/common';
import { schoolInputSchema, schoolListQuerySchema, schoolSchema } from '../schemas/school';
import { crud } from './define';

export const schoolCrud = crud('schools', 'schools', 'school', {
  item: schoolSchema,
  input: schoolInputSchema,
  query: schoolListQuerySchema,
  status: entityStatusSchema,
});
