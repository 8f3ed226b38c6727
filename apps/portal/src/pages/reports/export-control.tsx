import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportFormats, type ExportFormat, type ReportExportJob, type ReportKind } from '@fleet/api-client';
import { Button, FormField, Select } from '@fleet/ui';
import { useServices } from '../../state/app-context';
import { exportFinished as done, exportPollInterval } from './export-polling';
import type { ReportSelectionQuery } from './report-shell';

/**
 * Export of the report on screen: pick CSV, Excel or PDF, start a server job (POST answers 202 at once,
 * the page never waits on the file), poll it every second until it is completed or failed, then offer
 * the file. Files live under /v1/file/exports/ behind the session, and the portal keeps no media token
 * for plain links, so the finished file is fetched with the session header into a blob and the link
 * points at that blob URL (with a file name), revoked when the link goes away.
 * A failed job shows the server's error, which the server words in the requester's language (X-Locale).
 */
export function ExportControl({
  report,
  selection,
}: {
  report: ReportKind;
  selection: ReportSelectionQuery;
}) {
  const { t } = useTranslation('reports');
  const { api, toasts } = useServices();
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [started, setStarted] = useState<ReportExportJob | null>(null);

  const start = useMutation({
    mutationFn: () =>
      api.request('reports.exportCreate', {
        body: { report, format, ...selection },
      }),
    onSuccess: (answer) => setStarted(answer.data),
    onError: (error) =>
      toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) }),
  });

  const poll = useQuery({
    queryKey: ['report-export', started?.uuid],
    queryFn: ({ signal }) => api.request('reports.exportShow', { params: { uuid: started!.uuid }, signal }),
    enabled: Boolean(started) && !done(started),
    refetchInterval: (query) => exportPollInterval(query.state.data?.data),
  });
  const job = poll.data?.data ?? started ?? undefined;

  const file = job?.status === 'completed' ? job.file : null;
  // The object URL is made in the query and revoked when it is replaced or the control unmounts; gcTime 0
  // drops the cached (then revoked) URL as soon as nothing shows it, so a remount fetches a fresh one.
  const blob = useQuery({
    queryKey: ['report-export-file', file],
    queryFn: async ({ signal }) =>
      URL.createObjectURL(
        await api.request('files.show', { params: { kind: 'exports', name: file! }, signal }),
      ),
    enabled: Boolean(file),
    staleTime: Infinity,
    gcTime: 0,
  });
  const href = blob.data ?? null;
  useEffect(() => {
    if (!href) return;
    return () => URL.revokeObjectURL(href);
  }, [href]);

  const running = Boolean(job) && !done(job);
  const formatLabel = (f: ExportFormat) => t(`export.format.${f}`);
  return (
    <div className="flex flex-col gap-3" data-testid="report-export">
      <div className="flex flex-wrap items-end gap-3">
        <FormField id="report-export-format" label={t('export.formatLabel')}>
          <Select
            id="report-export-format"
            className="min-w-40"
            value={format}
            onValueChange={(value) => setFormat(value as ExportFormat)}
            options={exportFormats.map((f) => ({ value: f, label: formatLabel(f) }))}
          />
        </FormField>
        <Button
          data-testid="report-export-start"
          loading={start.isPending}
          disabled={start.isPending || running}
          onClick={() => {
            setStarted(null);
            start.mutate();
          }}
        >
          {t('export.start')}
        </Button>
      </div>
      {job && running ? (
        <div className="flex flex-col gap-1" data-testid="report-export-progress">
          <span id="report-export-progress-label" className="text-sm text-foreground-muted">
            {t(job.status === 'queued' ? 'export.queued' : 'export.running', {
              format: formatLabel(job.format),
            })}
          </span>
          <div
            role="progressbar"
            aria-labelledby="report-export-progress-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(job.progress)}
            className="h-2 w-full overflow-hidden rounded-full bg-surface-sunken"
          >
            <div className="h-full bg-primary transition-[width]" style={{ width: `${job.progress}%` }} />
          </div>
        </div>
      ) : null}
      {job?.status === 'completed' ? (
        <p
          role="status"
          className="flex flex-wrap items-center gap-2 text-sm"
          data-testid="report-export-done"
        >
          <span>{t('export.completed', { format: formatLabel(job.format) })}</span>
          {href && job.file ? (
            <a
              href={href}
              download={`${report}-report.${job.format}`}
              data-testid="report-export-download"
              className="font-medium text-primary underline"
            >
              {t('export.download')}
            </a>
          ) : blob.isError ? (
            <span className="text-danger">{blob.error.message}</span>
          ) : (
            <span className="text-foreground-muted">{t('export.preparing')}</span>
          )}
        </p>
      ) : null}
      {job?.status === 'failed' ? (
        <p role="alert" className="text-sm text-danger" data-testid="report-export-failed">
          {t('export.failed')} {job.error ?? ''}
        </p>
      ) : null}
      {poll.isError && !done(job) ? (
        <p role="alert" className="text-sm text-danger">
          {poll.error.message}
        </p>
      ) : null}
    </div>
  );
}
