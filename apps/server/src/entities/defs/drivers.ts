import { driverSchema } from '@fleet/api-client';
import type { EntityDef } from '../entity-def';
import { person, personSort } from './people-fields';

export const driverEntity: EntityDef = {
  name: 'drivers',
  table: 'drivers',
  label: 'driver',
  permission: 'drivers',
  item: driverSchema,
  columns: ['first_name', 'last_name', 'email', 'phone', 'license_number'],
  refs: {
    branch_uuid: { table: 'branches', column: 'branch_id', label: 'Branch' },
    station_uuid: { table: 'sub_companies', column: 'sub_company_id', label: 'Station' },
  },
  reverse: {
    vehicle_uuid: {
      otherTable: 'vehicles',
      otherColumn: 'driver_id',
      label: 'Vehicle',
      exclusive: 'vehicle',
    },
  },
  search: [...person, 'e.email', 'e.phone', 'e.license_number'],
  filters: {
    vehicle_uuid: 'EXISTS (SELECT 1 FROM vehicles v WHERE v.driver_id = e.id AND v.uuid = $?)',
  },
  sort: personSort,
  defaultSort: 'created_at',
  dependents: [
    { sql: 'SELECT 1 FROM scheduled_trips WHERE driver_id = $1 LIMIT 1', label: 'scheduled trips' },
    { sql: 'SELECT 1 FROM trips WHERE driver_id = $1 LIMIT 1', label: 'trips' },
    { sql: 'SELECT 1 FROM trips_app WHERE driver_id = $1 LIMIT 1', label: 'trips app records' },
    { sql: 'SELECT 1 FROM vehicles WHERE driver_id = $1 LIMIT 1', label: 'vehicles' },
  ],
};
