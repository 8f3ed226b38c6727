import {
  branchInputSchema,
  deviceInputSchema,
  driverInputSchema,
  entityStatuses,
  geofenceInputSchema,
  guardianInputSchema,
  passengerInputSchema,
  scheduledTripInputSchema,
  schoolInputSchema,
  stationInputSchema,
  supervisorInputSchema,
  userInputSchema,
  vehicleInputSchema,
  vehicleSortColumns,
  vehicleStatuses,
  vehicleTypes,
} from '@fleet/api-client';
import type { z } from 'zod';
import type { CrudEntity } from '../app/paths';

/** Endpoint group names of @fleet/api-client's table ('<group>.list', '<group>.show' ...). */
export type EndpointGroup =
  | 'vehicles'
  | 'drivers'
  | 'devices'
  | 'users'
  | 'geofences'
  | 'branches'
  | 'stations'
  | 'schools'
  | 'passengers'
  | 'guardians'
  | 'supervisors'
  | 'scheduledTrips';

export interface FormStep {
  key: 'details' | 'registration' | 'address';
  fields: readonly string[];
}

export interface EntityConfig {
  segment: CrudEntity;
  group: EndpointGroup;
  /** Input schema of the shared contract: drives the form fields, '(optional)' markers and validation. */
  input: z.ZodType;
  /** Columns of the list page (item field names). */
  columns: readonly string[];
  /** Fields left out of the form (edited elsewhere, e.g. status through the status dialog). */
  exclude: readonly string[];
  /** Two-step creation (spec §2: vehicle details/registration, school details/address). */
  steps?: readonly FormStep[];
  statuses: readonly string[];
  /** Enum filters of the list's "more filters" panel (query parameter -> options). */
  filters?: Record<string, readonly string[]>;
  /** Columns the list's API sorts by (server-side, from the contract); the others are not sortable. */
  sortable?: readonly string[];
}

/** Human name of a record for titles and references. */
export function recordTitle(item: Record<string, unknown> | null | undefined): string {
  if (!item) return '';
  if (typeof item.license_plate_number === 'string') return item.license_plate_number;
  if (typeof item.first_name === 'string') return `${item.first_name} ${String(item.last_name ?? '')}`.trim();
  if (typeof item.name === 'string') return item.name;
  if (typeof item.imei === 'string') return item.imei;
  if (typeof item.email === 'string') return item.email;
  return String(item.uuid ?? '');
}

const personColumns = ['first_name', 'last_name', 'phone', 'email', 'status'] as const;

export const entityConfigs: Record<CrudEntity, EntityConfig> = {
  vehicles: {
    segment: 'vehicles',
    group: 'vehicles',
    input: vehicleInputSchema,
    columns: ['license_plate_number', 'type', 'make', 'model', 'year', 'device_imei', 'status'],
    exclude: ['status'],
    statuses: vehicleStatuses,
    // One entry per spec type, straight from the contract's list (labels tell motorcycle and motor-bike apart).
    filters: { type: vehicleTypes },
    sortable: vehicleSortColumns,
    steps: [
      {
        key: 'details',
        fields: [
          'license_plate_number',
          'license_plate_state_code',
          'license_plate_category',
          'type',
          'make',
          'model',
          'year',
          'chassis_number',
          'engine_number',
          'seat_capacity',
          'fuel_tank_capacity',
          'speed_limit',
          'device_imei',
          'gps_device_imei',
          'driver_uuid',
          'branch_uuid',
          'station_uuid',
          'school_uuid',
        ],
      },
      {
        key: 'registration',
        fields: [
          'registration_number',
          'registration_expiry',
          'insurance_company',
          'insurance_policy_number',
          'insurance_expiry',
          'license_expiry',
        ],
      },
    ],
  },
  drivers: {
    segment: 'drivers',
    group: 'drivers',
    input: driverInputSchema,
    columns: [...personColumns.slice(0, 4), 'license_number', 'status'],
    exclude: ['status', 'profile_picture'],
    statuses: entityStatuses,
    filters: { gender: ['male', 'female'] },
  },
  devices: {
    segment: 'devices',
    group: 'devices',
    input: deviceInputSchema,
    columns: [
      'imei',
      'type',
      'make',
      'model',
      'sim_card_number',
      'current_status',
      'last_connected_at',
      'status',
    ],
    exclude: ['status'],
    statuses: entityStatuses,
    filters: {
      type: ['teltonika', 'ruptela', 'gosafe', 'door_technologies', 'istartek', 'osmand', 'mqtt'],
      current_status: ['online', 'offline', 'unplugged'],
    },
  },
  users: {
    segment: 'users',
    group: 'users',
    input: userInputSchema,
    columns: ['name', 'email', 'phone', 'user_type', 'role', 'status'],
    exclude: ['status', 'permissions'],
    statuses: entityStatuses,
    filters: {
      user_type: ['admin', 'branch_admin', 'school_admin', 'sub_company_admin', 'super_admin'],
    },
  },
  geofences: {
    segment: 'geofences',
    group: 'geofences',
    input: geofenceInputSchema,
    columns: ['name', 'type', 'purpose', 'color', 'status'],
    exclude: ['status'],
    statuses: entityStatuses,
    filters: { shape: ['polygon', 'circle'] },
  },
  branches: {
    segment: 'branches',
    group: 'branches',
    input: branchInputSchema,
    columns: ['name', 'description', 'status'],
    exclude: ['status'],
    statuses: entityStatuses,
  },
  stations: {
    segment: 'stations',
    group: 'stations',
    input: stationInputSchema,
    columns: ['name', 'name_ar', 'status'],
    exclude: ['status'],
    statuses: entityStatuses,
  },
  schools: {
    segment: 'schools',
    group: 'schools',
    input: schoolInputSchema,
    columns: ['name', 'code', 'type', 'education_level', 'students_capacity', 'city', 'status'],
    exclude: ['status'],
    statuses: entityStatuses,
    filters: { type: ['public', 'private'], education_level: ['primary', 'secondary', 'higher', 'all'] },
    steps: [
      {
        key: 'details',
        fields: [
          'name',
          'name_ar',
          'code',
          'type',
          'education_level',
          'students_capacity',
          'opening_time',
          'closing_time',
          'special_needs_support',
          'branch_uuid',
          'transport_coordinator_name',
          'transport_coordinator_email',
          'transport_coordinator_phone',
          'notes',
        ],
      },
      { key: 'address', fields: ['address', 'city', 'area', 'state', 'country', 'location'] },
    ],
  },
  passengers: {
    segment: 'passengers',
    group: 'passengers',
    input: passengerInputSchema,
    columns: ['first_name', 'last_name', 'student_number', 'grade', 'status'],
    exclude: ['status', 'profile_picture'],
    statuses: entityStatuses,
  },
  guardians: {
    segment: 'guardians',
    group: 'guardians',
    input: guardianInputSchema,
    columns: ['first_name', 'last_name', 'phone', 'email', 'relationship', 'status'],
    exclude: ['status'],
    statuses: entityStatuses,
  },
  supervisors: {
    segment: 'supervisors',
    group: 'supervisors',
    input: supervisorInputSchema,
    columns: personColumns,
    exclude: ['status', 'profile_picture'],
    statuses: entityStatuses,
  },
  'scheduled-trips': {
    segment: 'scheduled-trips',
    group: 'scheduledTrips',
    input: scheduledTripInputSchema,
    columns: ['name', 'type', 'departure_time', 'return_time', 'start_date', 'status'],
    exclude: ['status', 'stops'],
    statuses: entityStatuses,
    filters: { type: ['one_way', 'round'] },
  },
};

/** i18n key (entities namespace) of an entity segment or group. */
export function entityKey(segment: string): string {
  return segment.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
