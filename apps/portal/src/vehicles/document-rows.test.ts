import { describe, expect, it } from 'vitest';
import { documentRows, documentsNeedingAttention } from './document-rows';

const names = { vehicle: 'A 12345', driver: 'Omar Ali' };

describe('documentRows', () => {
  it('lists the vehicle documents with days left and state', () => {
    const rows = documentRows(
      { uuid: 'v1', registration_expiry: '2026-12-25', insurance_expiry: '2026-11-24', license_expiry: null },
      null,
      '2026-11-25',
      names,
    );
    expect(rows.map((r) => [r.kind, r.owner, r.expiresOn, r.days, r.state])).toEqual([
      ['vehicle_registration', 'A 12345', '2026-12-25', 30, 'dueSoon'],
      ['vehicle_insurance', 'A 12345', '2026-11-24', -1, 'expired'],
      ['vehicle_license', 'A 12345', null, null, null],
    ]);
    expect(documentsNeedingAttention(rows)).toBe(2);
  });

  it("adds the driver's licence, national ID and Iqama; the zero date reads as not recorded", () => {
    const rows = documentRows(
      { uuid: 'v1' },
      {
        uuid: 'd1',
        license_expiry: '2026-11-25',
        national_id_expiry: '0001-01-01',
        residence_permit_expiry: '2027-06-01',
      },
      '2026-11-25',
      names,
    );
    expect(rows.slice(3).map((r) => [r.kind, r.owner, r.days, r.state])).toEqual([
      ['driver_license', 'Omar Ali', 0, 'expiresToday'],
      ['driver_national_id', 'Omar Ali', null, null],
      ['driver_residence_permit', 'Omar Ali', 188, 'valid'],
    ]);
    expect(documentsNeedingAttention(rows)).toBe(1);
  });
});
