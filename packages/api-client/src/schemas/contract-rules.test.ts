import { describe, expect, it } from 'vitest';
import { baseLayerListSchema, baseLayerSchema } from './map';
import { MAX_SHARE_RECIPIENTS, shareEmailInputSchema } from './message';
import { rangeRefinement, rangeTooLongMessage } from './common';
import { notificationRuleInputSchema } from './notification';
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
