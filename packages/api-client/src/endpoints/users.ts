/** Users of a transport company. */
import { entityStatusSchema } from '../schemas/common';
import { userInputSchema, userListQuerySchema, userSchema } from '../schemas/user';
import { crud } from './define';

export const userCrud = crud('users', 'users', 'user', {
  item: userSchema,
  input: userInputSchema,
  query: userListQuerySchema,
  status: entityStatusSchema,
});
