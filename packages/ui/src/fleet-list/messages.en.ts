/** FleetList's own chrome strings (English). */
export const en = {
  label: 'Vehicles',
  search: 'Search plate or driver',
  count: '{count} vehicles',
  noResults: 'No vehicle matches',
  speed: '{speed} km/h',
  noDriver: 'No driver',
} as const;
