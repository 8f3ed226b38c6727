import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  exportFormats,
  scheduleFrequencies,
  type ExportFormat,
  type ReportKind,
  type ReportSchedule,
} from '@fleet/api-client';
import { Button, FormField, NativeSelect } from '@fleet/ui';
import { FieldValue } from '../../entities/display';
import { useServices, useSession } from '../../state/app-context';
import type { ReportSelectionQuery } from './report-shell';

type Frequency = (typeof scheduleFrequencies)[number];

/**
 * "E-mail this report": schedules the report on screen (its vehicle or group, not its range: each run
 * covers the period just ended) daily, weekly (Sunday) or monthly (the 1st) at 07:00 in the user's
 * zone and language, in the chosen file format; lists this report's schedules of the user with their
 * next sending time, and stops one.
 */
export function ScheduleControl({
  report,
  selection,
}: {
  report: ReportKind;
  selection: ReportSelectionQuery;
}) {
  const { t } = useTranslation('reports');
  const { api, toasts } = useServices();
  const { company } = useSession();
  const client = useQueryClient();
  const [frequency, setFrequency] = useState<Frequency>('weekly');
  const [format, setFormat] = useState<ExportFormat>('pdf');
  const key = ['report-schedules', company?.uuid];
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.request('reports.scheduleList', { signal }),
  });
  const onError = (error: unknown) =>
    toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  const create = useMutation({
    mutationFn: () => {
      const { from: _from, to: _to, ...group } = selection;
      return api.request('reports.scheduleCreate', {
        body: {
          report,
          format,
          frequency,
          hour: 7,
          ...(frequency === 'weekly' ? { weekday: 0 } : {}),
          ...(frequency === 'monthly' ? { day_of_month: 1 } : {}),
          ...group,
        },
      });
    },
    onSuccess: () => {
      toasts.show({ kind: 'success', message: t('schedule.saved') });
      void client.invalidateQueries({ queryKey: key });
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (uuid: string) => api.request('reports.scheduleDelete', { params: { uuid } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: key }),
    onError,
  });
  const mine = (list.data?.data ?? []).filter((s: ReportSchedule) => s.report === report);
  return (
    <div className="flex flex-col gap-3" data-testid="report-schedule">
      <div className="flex flex-wrap items-end gap-3">
        <FormField id="report-schedule-frequency" label={t('schedule.label')}>
          <NativeSelect
            id="report-schedule-frequency"
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as Frequency)}
          >
            {scheduleFrequencies.map((f) => (
              <option key={f} value={f}>
                {t(`schedule.${f}`)}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="report-schedule-format" label={t('export.formatLabel')}>
          <NativeSelect
            id="report-schedule-format"
            value={format}
            onChange={(e) => setFormat(e.target.value as ExportFormat)}
          >
            {exportFormats.map((f) => (
              <option key={f} value={f}>
                {t(`export.format.${f}`)}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <Button
          variant="outline"
          data-testid="report-schedule-save"
          loading={create.isPending}
          disabled={create.isPending}
          onClick={() => create.mutate()}
        >
          {t('schedule.save')}
        </Button>
      </div>
      {mine.length > 0 ? (
        <ul className="flex flex-col gap-2 text-sm" data-testid="report-schedule-list">
          {mine.map((s) => (
            <li key={s.uuid} className="flex flex-wrap items-center gap-2">
              <span>
                {t(`schedule.${s.frequency}`)} · {t(`export.format.${s.format}`)} · {t('schedule.next')}{' '}
                <FieldValue field="at" value={s.next_run_at} />
              </span>
              <Button
                variant="ghost"
                size="sm"
                disabled={remove.isPending}
                onClick={() => remove.mutate(s.uuid)}
                data-testid="report-schedule-delete"
              >
                {t('schedule.stop')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
