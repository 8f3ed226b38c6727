import { describe, expect, it } from 'vitest';
import { baseLayerListSchema, baseLayerSchema } from './map';
import { MAX_SHARE_RECIPIENTS, shareEmailInputSchema } from './message';
import { rangeRefinement, rangeTooLongMessage } from './common';
import { notificationRuleInputSchema } from './notification';
import { deviceInputSchema } from './device';
import { guardianInputSchema } from './people';
import { publicTokenParamsSchema, trackedTripSchema } from './guardian-messages';
import { vehicleListQuerySchema } from './vehicle';
import { z } from 'zod';

const layer = (over: Record<string, unknown> = {}) => ({
  id: 'streets',
  name: { en: 'Streets', ar: 'الشوارع' },
  url: 'https://tiles.example.test/{z}/{x}/{y}.png',
  ...over,
});

describe('base layers', () => {
  it.each([
    ['an https template with z, x and y', layer(), true],
    ['a same-origin path', layer({ url: '/tiles/{z}/{x}/{y}.png' }), true],
    ['an ftp URL', layer({ url: 'ftp://tiles.example.test/{z}/{x}/{y}.png' }), false],
    ['a template without {y}', layer({ url: 'https://tiles.example.test/{z}/{x}.png' }), false],
    ['an id with capitals', layer({ id: 'Streets' }), false],
  ])('%s', (_name, input, ok) => {
    expect(baseLayerSchema.safeParse(input).success).toBe(ok);
  });

  it('fills the defaults and refuses duplicate ids', () => {
    const [parsed] = baseLayerListSchema.parse([layer()]);
    expect(parsed).toMatchObject({ attribution: '', maxZoom: 19, kind: 'map' });
    expect(baseLayerListSchema.safeParse([layer(), layer()]).success).toBe(false);
    expect(baseLayerListSchema.safeParse([layer(), layer({ id: 'imagery' })]).success).toBe(true);
  });
});

describe('share by e-mail', () => {
  it('keeps each address once and defaults the expiry to an hour', () => {
    expect(shareEmailInputSchema.parse({ emails: ['a@fleet.test', 'a@fleet.test', 'b@fleet.test'] })).toEqual(
      {
        emails: ['a@fleet.test', 'b@fleet.test'],
        expires_in_minutes: 60,
      },
    );
  });

  it.each([
    ['no address', { emails: [] }],
    [
      'too many addresses',
      { emails: Array.from({ length: MAX_SHARE_RECIPIENTS + 1 }, (_, i) => `u${i}@fleet.test`) },
    ],
    ['a header injection', { emails: ['a@fleet.test\r\nBcc: x@evil.test'] }],
  ])('refuses %s', (_name, input) => {
    expect(shareEmailInputSchema.safeParse(input).success).toBe(false);
  });
});

describe('range refinement', () => {
  const schema = z
    .object({ from: z.string().optional(), to: z.string().optional() })
    .superRefine(rangeRefinement(366));
  it.each([
    ['an open range', {}, null],
    ['a year', { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' }, null],
    [
      'to before from',
      { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      'Please enter a valid To',
    ],
    ['two years', { from: '2025-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' }, rangeTooLongMessage(366)],
  ])('%s', (_name, input, message) => {
    const r = schema.safeParse(input);
    expect(r.success ? null : r.error.issues[0]!.message).toBe(message);
  });
});

describe('notification rule quiet hours', () => {
  const rule = (over: Record<string, unknown>) => ({
    name: 'Speed',
    type: 'overspeed',
    speed_limit: 80,
    ...over,
  });
  it.each([
    ['none', {}, null],
    ['both ends', { quiet_start: '22:00:00', quiet_end: '06:00:00' }, null],
    ['a start without an end', { quiet_start: '22:00:00' }, 'quiet_end'],
    ['an end without a start', { quiet_end: '06:00:00' }, 'quiet_start'],
    ['the same start and end', { quiet_start: '22:00:00', quiet_end: '22:00:00' }, 'quiet_end'],
  ])('%s', (_name, over, path) => {
    const r = notificationRuleInputSchema.safeParse(rule(over));
    expect(r.success ? null : r.error.issues[0]!.path.join('.')).toBe(path);
  });
});

describe('device installation date', () => {
  const device = (over: Record<string, unknown>) => ({ imei: '356307042441013', type: 'teltonika', ...over });
  it.each([
    ['a calendar date', { installation_date: '2026-03-01' }, '2026-03-01'],
    ['an empty field (not recorded)', { installation_date: '' }, null],
    ['no field', {}, null],
    ['a date-time', { installation_date: '2026-03-01T10:00:00Z' }, 'Please enter a valid Installation date'],
    ['an impossible day', { installation_date: '2026-02-30' }, 'Please enter a valid Installation date'],
  ])('%s', (_name, over, expected) => {
    const r = deviceInputSchema.safeParse(device(over));
    if (r.success) expect(r.data.installation_date).toBe(expected);
    else expect(r.error.issues[0]!.message).toBe(expected);
  });
});

describe('guardian message channel and language', () => {
  const guardian = (over: Record<string, unknown>) => ({
    first_name: 'Huda',
    last_name: 'Salem',
    phone: '+971500000001',
    relationship: 'mother',
    ...over,
  });
  it.each([
    ['no preference: decided when read', {}, null, { message_channel: null, language: 'en' }],
    [
      'e-mail with an address',
      { message_channel: 'email', email: 'h@family.test' },
      null,
      { message_channel: 'email' },
    ],
    ['e-mail without an address', { message_channel: 'email' }, 'email', null],
    ['both without an address', { message_channel: 'both', email: '' }, 'email', null],
    ['SMS without an address', { message_channel: 'sms' }, null, { message_channel: 'sms' }],
    ['none', { message_channel: 'none' }, null, { message_channel: 'none' }],
    ['Arabic', { language: 'ar' }, null, { language: 'ar' }],
    ['an unknown channel', { message_channel: 'pigeon' }, 'message_channel', null],
    ['an unknown language', { language: 'fr' }, 'language', null],
    ['an address with a header line', { email: 'h@family.test\r\nBcc: x@evil.test' }, 'email', null],
    ['a phone with letters', { phone: '+97150abc' }, 'phone', null],
  ])('%s', (_name, over, path, fields) => {
    const r = guardianInputSchema.safeParse(guardian(over));
    expect(r.success ? null : r.error.issues[0]!.path.join('.')).toBe(path);
    if (r.success && fields) expect(r.data).toMatchObject(fields);
  });

  it('the required address is worded like every required field', () => {
    const r = guardianInputSchema.safeParse(guardian({ message_channel: 'both' }));
    expect(r.success ? null : r.error.issues[0]!.message).toBe('Email is required');
  });

  it('a public token is any text (the server answers 404 for a bad one, never 422)', () => {
    expect(publicTokenParamsSchema.safeParse({ token: 'x' }).success).toBe(true);
    expect(publicTokenParamsSchema.safeParse({}).success).toBe(false);
  });

  it('a tracked trip is only ever an open one', () => {
    const trip = {
      name: 'T',
      status: 'completed',
      planned_start: '2026-11-20T07:00:00.000Z',
      planned_end: '2026-11-20T07:30:00.000Z',
    };
    expect(trackedTripSchema.shape.trip.safeParse(trip).success).toBe(false);
    expect(trackedTripSchema.shape.trip.safeParse({ ...trip, status: 'started' }).success).toBe(true);
  });
});

describe('vehicle list query', () => {
  const uuid = '3f1e2d4c-5b6a-4789-8abc-def012345678';
  it.each([
    ['sort by plate ascending', { sort: 'license_plate_number', order: 'asc' }, true],
    ['sort by last seen', { sort: 'last_seen' }, true],
    ['sort by a column the server does not sort', { sort: 'chassis_number' }, false],
    ['live status filter', { live_status: 'idle' }, true],
    ['an unknown live status', { live_status: 'parked' }, false],
    ['last seen within the hour', { last_seen: 'hour' }, true],
    ['last seen never', { last_seen: 'never' }, true],
    ['an unknown last-seen range', { last_seen: 'month' }, false],
    [
      'branch, station, school and driver together',
      { branch_uuid: uuid, station_uuid: uuid, school_uuid: uuid, driver_uuid: uuid },
      true,
    ],
    ['a driver that is not a uuid', { driver_uuid: 'omar' }, false],
    ['each spec type: motor-bike', { type: 'motor-bike' }, true],
  ])('%s', (_name, input, ok) => {
    expect(vehicleListQuerySchema.safeParse(input).success).toBe(ok);
  });
});
