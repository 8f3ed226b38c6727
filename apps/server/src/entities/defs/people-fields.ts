/** Search and sort of the entities that are people (drivers, passengers, guardians, supervisors). */
export const person = [
  'e.first_name',
  'e.last_name',
  "coalesce(e.first_name, '') || ' ' || coalesce(e.last_name, '')",
];
export const personSort = {
  name: 'lower(e.first_name || e.last_name)',
  created_at: 'e.created_at',
  updated_at: 'e.updated_at',
  status: 'e.status',
};
