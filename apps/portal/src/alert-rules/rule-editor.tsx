import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  documentKinds,
  isApiError,
  notificationRuleInputSchema,
  type NotificationRule,
  type NotificationRuleType,
} from '@fleet/api-client';
import { Button, Checkbox, Dialog, FormField, InlineAlert, Input, Switch } from '@fleet/ui';
import { requestByName, type ListAnswer } from '../entities/api';
import { recordTitle } from '../entities/registry';
import { issuesToErrors, serverFieldErrors, type FieldErrors } from '../forms/validation';
import { useServices, useSession } from '../state/app-context';
import { Checklist } from './checklist';
import { draftFor, draftToInput, kindParams, notificationChannels, type RuleDraft } from './kinds';

/** Records of a group as checklist options (first 500 by name, like the forms' reference pickers). */
function useOptions(group: 'vehicles' | 'geofences' | 'users') {
  const { api } = useServices();
  const { company } = useSession();
  return useQuery({
    queryKey: ['options', group, company?.uuid],
    queryFn: ({ signal }) =>
      requestByName<ListAnswer>(api, `${group}.list`, { query: { limit: 500, order: 'asc' }, signal }),
    staleTime: 60_000,
    select: (answer) => answer.data.map((row) => ({ value: row.uuid, label: recordTitle(row) })),
  });
}

const numberOrNull = (raw: string): number | null => (raw.trim() === '' ? null : Number(raw));

/**
 * The form of one alert kind's rule in a dialog: the kind's thresholds, the vehicles (and zones) it
 * watches, who receives it and its quiet hours. Validated with the contract's input schema before it
 * is sent; the server's 422 lands on the same fields.
 */
export function RuleEditor({
  type,
  rule,
  open,
  onOpenChange,
  onSaved,
}: {
  type: NotificationRuleType;
  rule: NotificationRule | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (rule: NotificationRule) => void;
}) {
  const { t, i18n } = useTranslation('alerts');
  const { api } = useServices();
  const kindTitle = t(`kind.${type}.title`);
  const [draft, setDraft] = useState<RuleDraft>(() => draftFor(type, kindTitle, rule));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const params = useMemo(() => new Set(kindParams[type]), [type]);
  const vehicles = useOptions('vehicles');
  const users = useOptions('users');
  const geofences = useOptions('geofences');
  const labelOf = (field: string): string | undefined =>
    ({
      name: t('form.name'),
      speed_limit: t('form.speedLimit'),
      min_duration_seconds: t('form.minDuration'),
      duration_minutes: t('form.durationMinutes'),
      threshold: t('form.threshold'),
      days_ahead: t('form.daysAhead'),
      documents: t('form.documents'),
      geofence_uuids: t('form.zones'),
      vehicle_uuids: t('form.vehicles'),
      recipient_user_uuids: t('form.recipients'),
      channels: t('form.channels'),
      quiet_start: t('form.quietStart'),
      quiet_end: t('form.quietEnd'),
    })[field];

  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const save = async () => {
    const body = draftToInput(draft);
    const parsed = notificationRuleInputSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues, i18n.language, labelOf));
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const answer = rule
        ? await api.request('notificationRules.update', { params: { uuid: rule.uuid }, body: parsed.data })
        : await api.request('notificationRules.create', { body: parsed.data });
      onSaved(answer.data);
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fieldErrors).length > 0) {
        setErrors(serverFieldErrors(error.fieldErrors, i18n.language, labelOf));
      } else {
        setFormError(error instanceof Error ? error.message : String(error));
      }
    } finally {
      setBusy(false);
    }
  };

  const listLabels = (count: number) => ({
    search: t('form.search'),
    selected: t('form.selected', { count }),
    clear: t('form.clear'),
    none: t('form.none'),
  });
  const numberField = (
    key: 'speed_limit' | 'min_duration_seconds' | 'duration_minutes' | 'threshold' | 'days_ahead',
    label: string,
    hint?: string,
  ) => (
    <FormField label={label} hint={hint} error={errors[key]} optional={key === 'speed_limit'}>
      <Input
        kind="number"
        inputMode="numeric"
        data-testid={`rule-${key}`}
        value={draft[key] ?? ''}
        onChange={(e) => set(key, numberOrNull(e.target.value))}
      />
    </FormField>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={t('form.title', { kind: kindTitle })}
      description={t(`kind.${type}.description`)}
      dismissable={!busy}
      footer={
        <>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
            {t('common:action.cancel')}
          </Button>
          <Button type="button" loading={busy} onClick={() => void save()} data-testid="rule-save">
            {busy ? t('common:action.saving') : t('common:action.save')}
          </Button>
        </>
      }
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        data-testid={`rule-editor-${type}`}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField label={t('form.name')} error={errors.name}>
            <Input value={draft.name} onChange={(e) => set('name', e.target.value)} data-testid="rule-name" />
          </FormField>
          <div className="flex items-end pb-2">
            <Switch
              label={t('form.active')}
              checked={draft.status === 'active'}
              onCheckedChange={(on) => set('status', on ? 'active' : 'inactive')}
              data-testid="rule-active"
            />
          </div>
          {params.has('speed_limit')
            ? numberField('speed_limit', t('form.speedLimit'), t('form.speedLimitHint'))
            : null}
          {params.has('min_duration_seconds')
            ? numberField('min_duration_seconds', t('form.minDuration'), t('form.minDurationHint'))
            : null}
          {params.has('duration_minutes') ? numberField('duration_minutes', t('form.durationMinutes')) : null}
          {params.has('threshold') ? numberField('threshold', t('form.threshold')) : null}
          {params.has('days_ahead') ? numberField('days_ahead', t('form.daysAhead')) : null}
        </div>
        {params.has('documents') ? (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-foreground">{t('form.documents')}</legend>
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              {documentKinds.map((kind) => (
                <Checkbox
                  key={kind}
                  label={t(`document.${kind}`)}
                  checked={draft.documents.includes(kind)}
                  onCheckedChange={(on) =>
                    set(
                      'documents',
                      on === true ? [...draft.documents, kind] : draft.documents.filter((d) => d !== kind),
                    )
                  }
                />
              ))}
            </div>
            {errors.documents ? (
              <p role="alert" className="text-sm text-danger">
                {errors.documents}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        {params.has('geofence_uuids') ? (
          <Checklist
            testId="rule-zones"
            label={t('form.zones')}
            hint={t('form.zonesHint')}
            options={geofences.data ?? []}
            value={draft.geofence_uuids}
            onChange={(next) => set('geofence_uuids', next)}
            error={errors.geofence_uuids}
            labels={listLabels(draft.geofence_uuids.length)}
          />
        ) : null}
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <Checklist
            testId="rule-vehicles"
            label={t('form.vehicles')}
            hint={t('form.vehiclesHint')}
            options={vehicles.data ?? []}
            value={draft.vehicle_uuids}
            onChange={(next) => set('vehicle_uuids', next)}
            error={errors.vehicle_uuids}
            labels={listLabels(draft.vehicle_uuids.length)}
          />
          <Checklist
            testId="rule-recipients"
            label={t('form.recipients')}
            hint={t('form.recipientsHint')}
            options={users.data ?? []}
            value={draft.recipient_user_uuids}
            onChange={(next) => set('recipient_user_uuids', next)}
            error={errors.recipient_user_uuids}
            labels={listLabels(draft.recipient_user_uuids.length)}
          />
        </div>
        <fieldset className="flex flex-col gap-2" data-testid="rule-channels">
          <legend className="mb-1 text-sm font-medium text-foreground">{t('form.channels')}</legend>
          <p className="text-xs text-foreground-muted">{t('form.channelsHint')}</p>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {notificationChannels.map((channel) => (
              <Checkbox
                key={channel}
                label={t(`channel.${channel}`)}
                data-testid={`rule-channel-${channel}`}
                checked={draft.channels.includes(channel)}
                onCheckedChange={(on) =>
                  set(
                    'channels',
                    on === true
                      ? notificationChannels.filter((c) => c === channel || draft.channels.includes(c))
                      : draft.channels.filter((c) => c !== channel),
                  )
                }
              />
            ))}
          </div>
          {errors.channels ? (
            <p role="alert" className="text-sm text-danger">
              {errors.channels}
            </p>
          ) : null}
        </fieldset>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-foreground">{t('form.quietHours')}</legend>
          <p className="text-xs text-foreground-muted">{t('form.quietHint')}</p>
          <div className="grid grid-cols-2 gap-4 sm:max-w-sm">
            <FormField label={t('form.quietStart')} error={errors.quiet_start} optional>
              <Input
                kind="time"
                data-testid="rule-quiet-start"
                value={draft.quiet_start}
                onChange={(e) => set('quiet_start', e.target.value)}
              />
            </FormField>
            <FormField label={t('form.quietEnd')} error={errors.quiet_end} optional>
              <Input
                kind="time"
                data-testid="rule-quiet-end"
                value={draft.quiet_end}
                onChange={(e) => set('quiet_end', e.target.value)}
              />
            </FormField>
          </div>
        </fieldset>
        {formError ? <InlineAlert>{formError}</InlineAlert> : null}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
