import { describe, expect, it } from 'vitest';
import { uniqueViolationError } from './errors';

describe('uniqueViolationError: every 23505 is a 422 naming the field', () => {
  it.each([
    [{ constraint: 'vehicles_device' }, { device_imei: ['This device is already assigned'] }],
    [{ constraint: 'vehicles_gps_device' }, { gps_device_imei: ['This device is already assigned'] }],
    [{ constraint: 'vehicles_driver' }, { driver_uuid: ['This driver is already assigned'] }],
    [
      { constraint: 'scheduled_trip_passengers_passenger' },
      { passenger_uuids: ['This passenger is already assigned'] },
    ],
    [{ constraint: 'devices_imei_key' }, { imei: ['This IMEI is already taken'] }],
    [
      { constraint: 'users_email', detail: 'Key (lower(email))=(a@b.c) already exists.' },
      { email: ['This email is already taken'] },
    ],
    [
      { constraint: 'files_kind_name_key', detail: 'Key (kind, name)=(logo, a.png) already exists.' },
      { kind: ['This kind is already taken'] },
    ],
    [
      { constraint: 'x', detail: 'Key (license_number)=(7) already exists.' },
      { license_number: ['This license number is already taken'] },
    ],
    [{ constraint: 'sessions_token_hash_key' }, { _: ['This value is already taken'] }],
    [{}, { _: ['This value is already taken'] }],
  ])('%j', (err, errors) => {
    const e = uniqueViolationError(err);
    expect(e.statusCode).toBe(422);
    expect(e.render('en').errors).toEqual(errors);
  });

  it('in Arabic, with the Arabic entity word', () => {
    expect(uniqueViolationError({ constraint: 'vehicles_driver' }).render('ar').errors).toEqual({
      driver_uuid: ['هذا السائق مُعيَّن بالفعل'],
    });
    expect(uniqueViolationError({ constraint: 'users_email' }).render('ar').errors).toEqual({
      email: ['هذا البريد الإلكتروني مستخدم بالفعل'],
    });
  });
});
