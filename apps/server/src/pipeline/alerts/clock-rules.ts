import { daysUntilExpiry, expiryReminderThreshold, reminderThresholds } from '@fleet/core';
import { alertMessagesAr, alertMessagesEn } from '../../alerts/messages';
import { localDate } from '../common/zoned-time';
import type { AlertFactory } from './delivery';
import type { AlertRecord, AlertRules, ExpiringDocument, VehicleContext } from './types';

/**
 * Rules the clock drives rather than a record: a device silent too long, a vehicle inactive for days,
 * documents nearing expiry. Nothing marks their end, so each fires once per silence or threshold: the
 * keys already fired live in `fired`, which the engine keeps, persists and takes over from other nodes.
 */

/**
 * Device offline longer than N minutes, vehicle inactive longer than N days (default 30, the spec's
 * inactive status). Fires once per silence (keyed by the last-seen time).
 */
export function silenceAlerts(
  rules: AlertRules,
  alert: AlertFactory,
  fired: Set<string>,
  now: number,
  vehicles: readonly (VehicleContext & { lastSeen?: number })[],
): AlertRecord[] {
  const out: AlertRecord[] = [];
  for (const v of vehicles) {
    if (v.lastSeen === undefined) continue;
    const silentMs = now - v.lastSeen;
    const who = { vehicleId: v.vehicleId, driverId: v.driverId };
    const off = rules.offline;
    if (off?.enabled && silentMs > off.afterMinutes * 60_000) {
      const key = `device_offline:${v.vehicleId}:${v.lastSeen}`;
      if (!fired.has(key)) {
        fired.add(key);
        out.push(
          alert(
            'device_offline',
            who,
            v.lastSeen,
            null,
            { plate: v.plate ?? v.vehicleId, minutes: Math.floor(silentMs / 60_000) },
            `${v.vehicleId}:${v.lastSeen}`,
          ),
        );
      }
    }
    const ina = rules.inactive;
    if (ina?.enabled && silentMs > (ina.afterDays ?? 30) * 86_400_000) {
      const key = `vehicle_inactive:${v.vehicleId}:${v.lastSeen}`;
      if (!fired.has(key)) {
        fired.add(key);
        out.push(
          alert(
            'vehicle_inactive',
            who,
            v.lastSeen,
            null,
            { plate: v.plate ?? v.vehicleId },
            `${v.vehicleId}:${v.lastSeen}`,
          ),
        );
      }
    }
  }
  return out;
}

/**
 * Document expiry reminders: 30, 7 and 1 days before and on the day (the first threshold is the
 * rule's `daysAhead`; see @fleet/core `expiryReminderThreshold`), once per document, expiry date and
 * threshold. The threshold is in the de-duplication key, so the daily check may run any number of
 * times, on any node, after any restart: each threshold reaches a recipient once (the stored
 * notifications are marked fired when a node takes the clock work over, and the database's unique
 * dedupe index stops a concurrent second insert). A renewed document (new expiry date) starts afresh.
 */
export function documentAlerts(
  rules: AlertRules,
  alert: AlertFactory,
  fired: Set<string>,
  timeZone: string,
  now: number,
  documents: readonly ExpiringDocument[],
): AlertRecord[] {
  const rule = rules.documentExpiry;
  if (!rule?.enabled) return [];
  const today = localDate(now, timeZone);
  const first = reminderThresholds(rule.daysAhead)[0]!;
  const out: AlertRecord[] = [];
  for (const d of documents) {
    if (rule.kinds?.length && !rule.kinds.includes(d.kind)) continue;
    // null: an unreadable or zero date (0001-01-01 is "no date" per the spec) has nothing to warn about
    const days = daysUntilExpiry(d.expiresOn, today);
    if (days === null) continue;
    const threshold = expiryReminderThreshold(days, rule.daysAhead);
    if (threshold === null) continue;
    const doc = `${d.ownerId}:${d.kind}:${d.expiresOn}`;
    const key = `document_expiry:${doc}:${threshold}`;
    if (fired.has(key)) continue;
    // Before the thresholds a document had one reminder keyed without one: that counts as the first.
    if (threshold === first && fired.has(`document_expiry:${doc}`)) continue;
    fired.add(key);
    out.push(
      alert(
        'document_expiry',
        { vehicleId: d.vehicleId, driverId: d.driverId },
        now,
        days,
        {
          document: alertMessagesEn[`documents.${d.kind}`],
          document_ar: alertMessagesAr[`documents.${d.kind}`],
          owner: d.ownerName,
          date: d.expiresOn,
          days,
          threshold,
        },
        `${doc}:${threshold}`,
        days < 0
          ? 'alerts.document_expiry.expired'
          : days === 0
            ? 'alerts.document_expiry.today'
            : days === 1
              ? 'alerts.document_expiry.tomorrow'
              : 'alerts.document_expiry.message',
      ),
    );
  }
  return out;
}
