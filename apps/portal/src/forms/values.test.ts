import { describe, expect, it } from 'vitest';
import { schoolInputSchema, vehicleInputSchema } from '@fleet/api-client';
import { describeSchema } from './introspect';
import { initialValues, toInput } from './values';
import { issuesToErrors } from './validation';

const vehicleDefs = describeSchema(vehicleInputSchema).filter((d) => d.name !== 'status');
const schoolDefs = describeSchema(schoolInputSchema).filter((d) => d.name !== 'status');

describe('describeSchema', () => {
  it('reads kinds, options and required flags from the contract', () => {
    const byName = Object.fromEntries(vehicleDefs.map((d) => [d.name, d]));
    expect(byName.license_plate_number).toMatchObject({ kind: 'text', required: true });
    expect(byName.type).toMatchObject({
      kind: 'select',
      required: true,
      options: ['bus', 'car', 'truck', 'motorcycle', 'motor-bike'],
    });
    expect(byName.year).toMatchObject({ kind: 'number', required: false });
    expect(byName.registration_expiry).toMatchObject({ kind: 'date', required: false });
    expect(byName.driver_uuid).toMatchObject({ kind: 'reference', ref: 'drivers', required: false });
    const school = Object.fromEntries(schoolDefs.map((d) => [d.name, d]));
    expect(school.opening_time?.kind).toBe('time');
    expect(school.special_needs_support?.kind).toBe('boolean');
    expect(school.location?.kind).toBe('coordinates');
    expect(school.transport_coordinator_email?.kind).toBe('email');
  });
});

describe('form values', () => {
  it('an empty vehicle form fails with the spec texts on the required fields only', () => {
    const parsed = vehicleInputSchema.safeParse(toInput(vehicleDefs, initialValues(vehicleDefs)));
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const errors = issuesToErrors(parsed.error.issues, 'en-US');
    expect(Object.keys(errors).sort()).toEqual(['license_plate_number', 'type']);
    expect(errors.license_plate_number).toBe('License plate number is required');
  });

  it('a non-number in a number field is "Please enter a valid"', () => {
    const values = { ...initialValues(vehicleDefs), license_plate_number: 'A 1', type: 'bus', year: 'abc' };
    const parsed = vehicleInputSchema.safeParse(toInput(vehicleDefs, values));
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(issuesToErrors(parsed.error.issues, 'en-US').year).toBe('Please enter a valid Year');
  });

  it('a filled vehicle parses; times get seconds; coordinates are numbers', () => {
    const values = {
      ...initialValues(vehicleDefs),
      license_plate_number: 'D 12345',
      type: 'bus',
      year: '2022',
    };
    const parsed = vehicleInputSchema.safeParse(toInput(vehicleDefs, values));
    expect(parsed.success).toBe(true);
    const school = {
      ...initialValues(schoolDefs),
      name: 'Al Noor',
      type: 'private',
      education_level: 'primary',
      opening_time: '07:30',
      closing_time: '14:00',
      location: { latitude: '25.2', longitude: '55.3' },
    };
    const input = toInput(schoolDefs, school);
    expect(input.opening_time).toBe('07:30:00');
    expect(input.location).toEqual({ latitude: 25.2, longitude: 55.3 });
    expect(schoolInputSchema.safeParse(input).success).toBe(true);
  });

  it('reads a stored record back into the form', () => {
    const values = initialValues(schoolDefs, {
      name: 'X',
      opening_time: '07:30:00',
      special_needs_support: true,
      location: null,
    });
    expect(values).toMatchObject({
      name: 'X',
      opening_time: '07:30',
      special_needs_support: true,
      location: { latitude: '', longitude: '' },
    });
  });
});

describe('contract defaults', () => {
  it('a new geofence starts with the default tracking rules and colour; a new trip with weekdays', async () => {
    const { geofenceInputSchema, scheduledTripInputSchema } = await import('@fleet/api-client');
    const geo = describeSchema(geofenceInputSchema);
    const values = initialValues(geo);
    expect(values.tracking_rules).toEqual(['entry', 'exit']);
    expect(values.color).toBe('#3388ff');
    const trip = initialValues(describeSchema(scheduledTripInputSchema));
    expect(trip.days_of_week).toEqual(['1', '2', '3', '4', '5']);
  });
});
