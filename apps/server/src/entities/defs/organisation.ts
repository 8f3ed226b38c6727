/** The company's organisation: branches, stations (sub-companies) and schools, which other records are scoped to. */
import { branchSchema, schoolSchema, stationSchema } from '@fleet/api-client';
import type { EntityDef } from '../entity-def';

/**
 * Records scoped to a station / branch / school hold it with ON DELETE RESTRICT: the delete is refused
 * up front with a 409 naming them (the database's own refusal is 23503 or, on PostgreSQL 17 and
 * PGlite, 23001; both are mapped to a generic 409 in app.ts as a last resort).
 */
const SCOPED: [table: string, label: string][] = [
  ['branches', 'branches'],
  ['schools', 'schools'],
  ['vehicles', 'vehicles'],
  ['drivers', 'drivers'],
  ['devices', 'devices'],
  ['passengers', 'passengers'],
  ['guardians', 'guardians'],
  ['supervisors', 'supervisors'],
  ['geofences', 'geofences'],
  ['scheduled_trips', 'scheduled trips'],
  ['trips', 'trips'],
  ['trips_app', 'trips app records'],
  ['memberships', 'users'],
];
function scopedDependents(column: 'sub_company_id' | 'branch_id' | 'school_id', ...without: string[]) {
  return SCOPED.filter(([table]) => !without.includes(table)).map(([table, label]) => ({
    sql: `SELECT 1 FROM ${table} WHERE ${column} = $1 LIMIT 1`,
    label,
  }));
}

export const branchEntity: EntityDef = {
  name: 'branches',
  table: 'branches',
  label: 'branch',
  permission: 'branches',
  item: branchSchema,
  columns: ['name', 'description', 'location'],
  refs: { station_uuid: { table: 'sub_companies', column: 'sub_company_id', label: 'Station' } },
  search: ['e.name', 'e.description'],
  sort: {
    name: 'lower(e.name)',
    status: 'e.status',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'created_at',
  prepare: async (input) => ({
    location: input.location === null || input.location === undefined ? null : JSON.stringify(input.location),
  }),
  dependents: scopedDependents('branch_id', 'branches'),
};

export const stationEntity: EntityDef = {
  name: 'stations',
  table: 'sub_companies',
  label: 'station',
  permission: 'stations',
  item: stationSchema,
  columns: ['name', 'name_ar'],
  search: ['e.name', 'e.name_ar'],
  sort: {
    name: 'lower(e.name)',
    status: 'e.status',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'created_at',
  dependents: scopedDependents('sub_company_id'),
};

export const schoolEntity: EntityDef = {
  name: 'schools',
  table: 'schools',
  label: 'school',
  permission: 'schools',
  item: schoolSchema,
  columns: ['name', 'name_ar', 'code', 'type'],
  refs: { branch_uuid: { table: 'branches', column: 'branch_id', label: 'Branch' } },
  search: ['e.name', 'e.name_ar', 'e.code', "e.data->>'city'"],
  filters: { education_level: "e.data->>'education_level' = $?" },
  sort: {
    name: 'lower(e.name)',
    code: 'e.code',
    type: 'e.type',
    status: 'e.status',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'created_at',
  dependents: scopedDependents('school_id', 'branches', 'schools'),
};
