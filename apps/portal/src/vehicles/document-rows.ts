import { daysUntilExpiry, expiryState, type ExpiryState } from '@fleet/core';
import type { Row } from '../entities/api';

/**
 * The documents of a vehicle's overview: the vehicle's registration, insurance and operating licence,
 * and its driver's licence, national ID and residence permit (Iqama), the same kinds the server's
 * expiry reminders cover, with days left and state from @fleet/core (one rule for both).
 */
export const vehicleDocumentFields = [
  ['vehicle_registration', 'registration_expiry'],
  ['vehicle_insurance', 'insurance_expiry'],
  ['vehicle_license', 'license_expiry'],
] as const;
export const driverDocumentFields = [
  ['driver_license', 'license_expiry'],
  ['driver_national_id', 'national_id_expiry'],
  ['driver_residence_permit', 'residence_permit_expiry'],
] as const;

export type DocumentKind =
  (typeof vehicleDocumentFields)[number][0] | (typeof driverDocumentFields)[number][0];

export interface DocumentRow {
  kind: DocumentKind;
  owner: string;
  /** 'YYYY-MM-DD' or null when not recorded. */
  expiresOn: string | null;
  /** Whole days from today; null when not recorded or not a date. */
  days: number | null;
  state: ExpiryState | null;
}

/** The vehicle's documents and, when it has one, its driver's, with days left and state (pure). */
export function documentRows(
  vehicle: Row,
  driver: Row | null,
  todayIso: string,
  names: { vehicle: string; driver: string },
): DocumentRow[] {
  const row = (kind: DocumentKind, owner: string, value: unknown): DocumentRow => {
    const expiresOn =
      typeof value === 'string' && value && !value.startsWith('0001-') ? value.slice(0, 10) : null;
    const days = expiresOn ? daysUntilExpiry(expiresOn, todayIso) : null;
    return { kind, owner, expiresOn, days, state: days === null ? null : expiryState(days) };
  };
  const rows = vehicleDocumentFields.map(([kind, field]) => row(kind, names.vehicle, vehicle[field]));
  if (driver)
    rows.push(...driverDocumentFields.map(([kind, field]) => row(kind, names.driver, driver[field])));
  return rows;
}

/** Number of documents that need attention (expired or within 30 days): the tab's badge. */
export function documentsNeedingAttention(rows: readonly DocumentRow[]): number {
  return rows.filter((r) => r.state !== null && r.state !== 'valid').length;
}
