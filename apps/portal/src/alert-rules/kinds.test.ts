import { describe, expect, it } from 'vitest';
import { notificationRuleInputSchema, type NotificationRule } from '@fleet/api-client';
import { draftFor, draftToInput } from './kinds';

const saved = {
  uuid: '00000000-0000-4000-8000-000000000001',
  name: 'Speed',
  type: 'overspeed',
  status: 'active',
  speed_limit: 90,
  min_duration_seconds: 10,
  duration_minutes: null,
  threshold: null,
  days_ahead: null,
  documents: [],
  geofence_uuids: [],
  vehicle_uuids: [],
  recipient_user_uuids: [],
  channels: ['in_app', 'email', 'sms'],
  quiet_start: null,
  quiet_end: null,
} as unknown as NotificationRule;

describe('alert rule channels in the form', () => {
  it.each([
    ['a new rule starts with the contract default', draftFor('overspeed', 'Speed'), ['in_app', 'push']],
    [
      'a saved rule shows its own channels',
      draftFor('overspeed', 'Speed', saved),
      ['in_app', 'email', 'sms'],
    ],
    [
      'what the form holds is what is sent',
      { ...draftFor('overspeed', 'Speed'), channels: ['email' as const] },
      ['email'],
    ],
  ])('%s', (_name, draft, channels) => {
    expect(draft.channels).toEqual(channels);
    const parsed = notificationRuleInputSchema.safeParse(draftToInput(draft));
    expect(parsed.success && parsed.data.channels).toEqual(channels);
  });

  it('no channel at all is a field error on channels', () => {
    const parsed = notificationRuleInputSchema.safeParse(
      draftToInput({ ...draftFor('overspeed', 'Speed'), channels: [] }),
    );
    expect(parsed.success ? null : parsed.error.issues.map((i) => i.path.join('.'))).toEqual(['channels']);
  });
});
