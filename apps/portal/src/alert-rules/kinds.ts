import {
  documentKinds,
  notificationRuleTypes,
  notificationChannels,
  type NotificationRule,
  type NotificationRuleType,
} from '@fleet/api-client';

/**
 * What the alert rules page asks for each alert kind: the contract's rule types grouped for people,
 * and which of the rule's parameters each kind uses (the server's pipeline reads the same fields,
 * apps/server/src/pipeline/alerts/from-rules.ts). One rule per kind is edited here because the pipeline
 * applies the first active rule of a kind (by creation); extra rules of a kind made through the API
 * are listed as such on the page.
 */
export type RuleParam =
  | 'speed_limit'
  | 'min_duration_seconds'
  | 'duration_minutes'
  | 'threshold'
  | 'days_ahead'
  | 'documents'
  | 'geofence_uuids';

export const kindGroups = [
  { key: 'driving', kinds: ['overspeed', 'idling', 'ignition_on', 'ignition_off', 'violation_output'] },
  {
    key: 'device',
    kinds: ['emergency_button', 'device_unplugged', 'low_battery', 'device_offline', 'vehicle_inactive'],
  },
  { key: 'zones', kinds: ['geofence_entry', 'geofence_exit', 'salik_crossing'] },
  { key: 'documents', kinds: ['document_expiry'] },
  { key: 'school', kinds: ['trip_delayed', 'trip_missed'] },
] as const satisfies readonly { key: string; kinds: readonly NotificationRuleType[] }[];

export const kindParams: Record<NotificationRuleType, readonly RuleParam[]> = {
  overspeed: ['speed_limit', 'min_duration_seconds'],
  idling: ['duration_minutes'],
  emergency_button: [],
  violation_output: [],
  ignition_on: [],
  ignition_off: [],
  device_unplugged: [],
  low_battery: ['threshold'],
  geofence_entry: ['geofence_uuids'],
  geofence_exit: ['geofence_uuids'],
  salik_crossing: [],
  device_offline: ['duration_minutes'],
  vehicle_inactive: [],
  document_expiry: ['days_ahead', 'documents'],
  trip_delayed: ['duration_minutes'],
  trip_missed: [],
};

/** Starting values when a kind is switched on for the first time (the spec's usual thresholds). */
export const kindDefaults: Partial<Record<NotificationRuleType, Partial<RuleDraft>>> = {
  overspeed: { speed_limit: 80, min_duration_seconds: 10 },
  idling: { duration_minutes: 10 },
  low_battery: { threshold: 20 },
  device_offline: { duration_minutes: 60 },
  document_expiry: { days_ahead: 30, documents: [...documentKinds] },
  trip_delayed: { duration_minutes: 10 },
};

export type RuleChannel = (typeof notificationChannels)[number];
export { notificationChannels };

/** The editable part of a rule, as the form holds it (the contract's input, flat). */
export interface RuleDraft {
  name: string;
  type: NotificationRuleType;
  status: 'active' | 'inactive';
  speed_limit: number | null;
  min_duration_seconds: number | null;
  duration_minutes: number | null;
  threshold: number | null;
  days_ahead: number | null;
  documents: string[];
  geofence_uuids: string[];
  vehicle_uuids: string[];
  recipient_user_uuids: string[];
  /** How the alert reaches its recipients (in the app, push, e-mail, SMS); at least one. */
  channels: RuleChannel[];
  /** 'HH:mm' in the form; the contract carries 'HH:mm:ss'. */
  quiet_start: string;
  quiet_end: string;
}

export function draftFor(
  type: NotificationRuleType,
  name: string,
  rule?: NotificationRule | null,
): RuleDraft {
  if (rule) {
    return {
      name: rule.name,
      type,
      status: rule.status === 'active' ? 'active' : 'inactive',
      speed_limit: rule.speed_limit,
      min_duration_seconds: rule.min_duration_seconds ?? null,
      duration_minutes: rule.duration_minutes,
      threshold: rule.threshold,
      days_ahead: rule.days_ahead,
      documents: [...rule.documents],
      geofence_uuids: [...rule.geofence_uuids],
      vehicle_uuids: [...rule.vehicle_uuids],
      recipient_user_uuids: [...rule.recipient_user_uuids],
      channels: [...rule.channels],
      quiet_start: (rule.quiet_start ?? '').slice(0, 5),
      quiet_end: (rule.quiet_end ?? '').slice(0, 5),
    };
  }
  return {
    name,
    type,
    status: 'active',
    speed_limit: null,
    min_duration_seconds: null,
    duration_minutes: null,
    threshold: null,
    days_ahead: null,
    documents: [],
    geofence_uuids: [],
    vehicle_uuids: [],
    recipient_user_uuids: [],
    channels: ['in_app', 'push'],
    quiet_start: '',
    quiet_end: '',
    ...kindDefaults[type],
  };
}

/**
 * The request body for the contract's notificationRuleInputSchema: parameters a kind does not use are
 * sent as null / empty so a rule never keeps a stale threshold of another kind. Channels start as the
 * contract's default (in the app and push) for a new rule and are what the form shows otherwise.
 */
export function draftToInput(draft: RuleDraft): Record<string, unknown> {
  const used = new Set<RuleParam>(kindParams[draft.type]);
  const pick = <T>(param: RuleParam, value: T, empty: T): T => (used.has(param) ? value : empty);
  return {
    name: draft.name.trim(),
    type: draft.type,
    status: draft.status,
    speed_limit: pick('speed_limit', draft.speed_limit, null),
    min_duration_seconds: pick('min_duration_seconds', draft.min_duration_seconds, null),
    duration_minutes: pick('duration_minutes', draft.duration_minutes, null),
    threshold: pick('threshold', draft.threshold, null),
    days_ahead: pick('days_ahead', draft.days_ahead, null),
    documents: pick('documents', draft.documents, []),
    geofence_uuids: pick('geofence_uuids', draft.geofence_uuids, []),
    vehicle_uuids: draft.vehicle_uuids,
    recipient_user_uuids: draft.recipient_user_uuids,
    quiet_start: draft.quiet_start ? `${draft.quiet_start}:00` : null,
    quiet_end: draft.quiet_end ? `${draft.quiet_end}:00` : null,
    channels: draft.channels,
  };
}

/** The rule that applies to a kind: the first active one by creation, else the first one. */
export function ruleOfKind(rules: readonly NotificationRule[], type: NotificationRuleType) {
  const ofKind = rules
    .filter((r) => r.type === type)
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  return { rule: ofKind.find((r) => r.status === 'active') ?? ofKind[0] ?? null, count: ofKind.length };
}

export { notificationRuleTypes };
