/** The people of school transport: passengers, their guardians and bus supervisors. */
import { guardianSchema, passengerSchema, supervisorSchema } from '@fleet/api-client';
import type { EntityDef } from '../entity-def';
import { person, personSort } from './people-fields';

export const passengerEntity: EntityDef = {
  name: 'passengers',
  table: 'passengers',
  label: 'passenger',
  permission: 'passengers',
  item: passengerSchema,
  columns: ['first_name', 'last_name'],
  refs: { school_uuid: { table: 'schools', column: 'school_id', label: 'School' } },
  links: {
    guardian_uuids: {
      table: 'passenger_guardians',
      self: 'passenger_id',
      other: 'guardian_id',
      otherTable: 'guardians',
      label: 'Guardian',
    },
  },
  search: [...person, "e.data->>'student_number'"],
  filters: {
    guardian_uuid:
      'EXISTS (SELECT 1 FROM passenger_guardians j JOIN guardians g ON g.id = j.guardian_id WHERE j.passenger_id = e.id AND g.uuid = $?)',
    scheduled_trip_uuid:
      'EXISTS (SELECT 1 FROM scheduled_trip_passengers j JOIN scheduled_trips s ON s.id = j.scheduled_trip_id WHERE j.passenger_id = e.id AND s.uuid = $?)',
  },
  sort: personSort,
  defaultSort: 'created_at',
  dependents: [
    {
      sql: 'SELECT 1 FROM scheduled_trip_passengers WHERE passenger_id = $1 LIMIT 1',
      label: 'scheduled trips',
    },
  ],
};

export const guardianEntity: EntityDef = {
  name: 'guardians',
  table: 'guardians',
  label: 'guardian',
  permission: 'guardians',
  item: guardianSchema,
  columns: ['first_name', 'last_name', 'email', 'phone'],
  links: {
    passenger_uuids: {
      table: 'passenger_guardians',
      self: 'guardian_id',
      other: 'passenger_id',
      otherTable: 'passengers',
      label: 'Passenger',
    },
  },
  search: [...person, 'e.email', 'e.phone'],
  // Guardians saved before the message preference (issue 14) existed: e-mail when they have an
  // address, else SMS; English. Migration 0026's trigger reads missing values the same way.
  view: (item) => ({
    ...item,
    message_channel: item.message_channel ?? (item.email ? 'email' : 'sms'),
    language: item.language ?? 'en',
  }),
  filters: {
    passenger_uuid:
      'EXISTS (SELECT 1 FROM passenger_guardians j JOIN passengers x ON x.id = j.passenger_id WHERE j.guardian_id = e.id AND x.uuid = $?)',
  },
  sort: personSort,
  defaultSort: 'created_at',
};

export const supervisorEntity: EntityDef = {
  name: 'supervisors',
  table: 'supervisors',
  label: 'supervisor',
  permission: 'supervisors',
  item: supervisorSchema,
  columns: ['first_name', 'last_name', 'email', 'phone'],
  refs: {
    school_uuid: { table: 'schools', column: 'school_id', label: 'School' },
    vehicle_uuid: { table: 'vehicles', column: 'vehicle_id', label: 'Vehicle', exclusive: 'vehicle' },
  },
  search: [...person, 'e.email', 'e.phone'],
  sort: personSort,
  defaultSort: 'created_at',
  dependents: [
    { sql: 'SELECT 1 FROM scheduled_trips WHERE supervisor_id = $1 LIMIT 1', label: 'scheduled trips' },
    { sql: 'SELECT 1 FROM trips WHERE supervisor_id = $1 LIMIT 1', label: 'trips' },
  ],
};
