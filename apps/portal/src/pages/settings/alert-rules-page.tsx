import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  notificationRuleInputSchema,
  type NotificationRule,
  type NotificationRuleType,
} from '@fleet/api-client';
import { Button, Card, ErrorState, LoadingState, PageHeader, Switch } from '@fleet/ui';
import { draftFor, draftToInput, kindGroups, kindParams, ruleOfKind } from '../../alert-rules/kinds';
import { RuleEditor } from '../../alert-rules/rule-editor';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

/**
 * settings/alert-rules: every alert kind of the notification-rules contract with its on/off switch, a
 * one-line summary of what the rule does (threshold, zones, vehicles, recipients, quiet hours) and an
 * editor. Switching a kind on creates its rule with the usual thresholds; a kind that cannot work
 * without a choice (zones) opens the editor instead.
 */
export default function AlertRulesPage() {
  const { t } = useTranslation('alerts');
  const { api, toasts } = useServices();
  const { company } = useSession();
  const queryClient = useQueryClient();
  const rules = useQuery({
    queryKey: ['list', 'notificationRules', company?.uuid, 'all'],
    queryFn: ({ signal }) =>
      api.request('notificationRules.list', {
        query: { limit: 500, order: 'asc', sort: 'created_at' },
        signal,
      }),
  });
  usePageReady(rules.isSuccess || rules.isError);
  const [editing, setEditing] = useState<NotificationRuleType | null>(null);
  const [pending, setPending] = useState<NotificationRuleType | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['list', 'notificationRules'] });

  const toggle = async (type: NotificationRuleType, rule: NotificationRule | null, on: boolean) => {
    const kind = t(`kind.${type}.title`);
    const draft = { ...draftFor(type, kind, rule), status: on ? ('active' as const) : ('inactive' as const) };
    const parsed = notificationRuleInputSchema.safeParse(draftToInput(draft));
    if (!parsed.success) {
      setEditing(type); // e.g. zone alerts need their zones first
      return;
    }
    setPending(type);
    try {
      if (rule)
        await api.request('notificationRules.update', { params: { uuid: rule.uuid }, body: parsed.data });
      else await api.request('notificationRules.create', { body: parsed.data });
      await refresh();
      toasts.show({ kind: 'success', message: t(on ? 'action.turnedOn' : 'action.turnedOff', { kind }) });
    } catch (error) {
      toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    } finally {
      setPending(null);
    }
  };

  if (rules.isPending) return <LoadingState label={t('common:state.loading')} />;
  if (rules.isError) return <ErrorState description={rules.error.message} />;
  const list = rules.data.data;
  const editingRule = editing ? ruleOfKind(list, editing).rule : null;

  return (
    <div className="flex flex-col gap-6" data-testid="alert-rules">
      <PageHeader title={t('page.title')} description={t('page.description')} />
      {kindGroups.map((group) => (
        <section key={group.key} aria-labelledby={`alert-group-${group.key}`} className="flex flex-col gap-2">
          <h2 id={`alert-group-${group.key}`} className="text-base font-semibold text-foreground">
            {t(`group.${group.key}`)}
          </h2>
          <Card padding="none">
            <ul className="divide-y divide-border">
              {group.kinds.map((type) => {
                const { rule, count } = ruleOfKind(list, type);
                const on = rule?.status === 'active';
                return (
                  <li
                    key={type}
                    data-testid={`alert-kind-${type}`}
                    data-state={on ? 'on' : 'off'}
                    className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center"
                  >
                    <div className="flex min-w-0 flex-1 flex-col gap-1">
                      <span className="font-medium text-foreground">{t(`kind.${type}.title`)}</span>
                      <span className="text-sm text-foreground-muted">{t(`kind.${type}.description`)}</span>
                      {rule ? <RuleSummary rule={rule} /> : null}
                      {count > 1 ? (
                        <span className="text-xs text-foreground-muted">
                          {t('summary.extra', { count: count - 1 })}
                        </span>
                      ) : null}
                    </div>
                    <div className="flex shrink-0 items-center gap-3">
                      <Switch
                        aria-label={t('action.toggle', { kind: t(`kind.${type}.title`) })}
                        checked={on}
                        disabled={pending === type}
                        onCheckedChange={(next) => void toggle(type, rule, next)}
                        data-testid={`alert-toggle-${type}`}
                      />
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => setEditing(type)}
                        data-testid={`alert-edit-${type}`}
                      >
                        {rule ? t('action.edit') : t('action.configure')}
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          </Card>
        </section>
      ))}
      {editing ? (
        <RuleEditor
          key={`${editing}:${editingRule?.uuid ?? 'new'}`}
          type={editing}
          rule={editingRule}
          open
          onOpenChange={(open) => {
            if (!open) setEditing(null);
          }}
          onSaved={() => {
            setEditing(null);
            void refresh();
            toasts.show({ kind: 'success', message: t('action.saved') });
          }}
        />
      ) : null}
    </div>
  );
}

/** "Over 80 km/h for 10 s · All vehicles · Everyone who sees the vehicle · Quiet 22:00–06:00". */
function RuleSummary({ rule }: { rule: NotificationRule }) {
  const { t } = useTranslation('alerts');
  const params = new Set(kindParams[rule.type]);
  const parts: string[] = [t(rule.status === 'active' ? 'summary.on' : 'summary.off')];
  if (params.has('speed_limit')) {
    let text =
      rule.speed_limit === null ? t('summary.speedOwn') : t('summary.speed', { speed: rule.speed_limit });
    if (rule.min_duration_seconds)
      text += ` ${t('summary.forSeconds', { seconds: rule.min_duration_seconds })}`;
    parts.push(text);
  }
  if (params.has('duration_minutes') && rule.duration_minutes !== null)
    parts.push(t('summary.minutes', { minutes: rule.duration_minutes }));
  if (params.has('threshold') && rule.threshold !== null)
    parts.push(t('summary.threshold', { threshold: rule.threshold }));
  if (params.has('days_ahead') && rule.days_ahead !== null)
    parts.push(t('summary.daysAhead', { days: rule.days_ahead }));
  if (params.has('geofence_uuids')) parts.push(t('summary.zones', { count: rule.geofence_uuids.length }));
  parts.push(
    rule.vehicle_uuids.length
      ? t('summary.vehicles', { count: rule.vehicle_uuids.length })
      : t('summary.allVehicles'),
  );
  parts.push(
    rule.recipient_user_uuids.length
      ? t('summary.recipients', { count: rule.recipient_user_uuids.length })
      : t('summary.everyone'),
  );
  if (rule.quiet_start && rule.quiet_end)
    parts.push(t('summary.quiet', { start: rule.quiet_start.slice(0, 5), end: rule.quiet_end.slice(0, 5) }));
  return (
    <span className="text-xs text-foreground" data-testid={`alert-summary-${rule.type}`}>
      {parts.join(' · ')}
    </span>
  );
}
