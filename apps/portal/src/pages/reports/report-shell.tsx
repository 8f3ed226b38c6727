import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ReactNode } from 'react';
import { quickRange, quickRanges, type MessageKey, type QuickRange } from '@fleet/core';
import { useTimeZone } from '../../entities/display';
import { useCoreText } from '../../i18n/core-text';
import { useLiveVehicles } from '../../live/use-live-vehicles';
import { useNow } from '../../live/use-now';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { ExportControl } from './export-control';
import { Card, FormField, NativeSelect, PageHeader } from '@fleet/ui';

type Kind = 'fuel' | 'engine' | 'wheel';

/**
 * Shared frame of the fuel, engine and wheel reports: vehicle and quick-range filters (core's ranges
 * in the user's zone), the report call, the export of the same range and vehicle, the empty text of
 * spec §8, and the rows rendered by the page.
 */
export function ReportShell<R>({
  kind,
  title,
  renderRows,
}: {
  kind: Kind;
  title: string;
  renderRows: (rows: R[]) => ReactNode;
}) {
  const { t } = useTranslation('reports');
  const core = useCoreText();
  const { api } = useServices();
  const { company } = useSession();
  const timeZone = useTimeZone();
  const vehicles = useLiveVehicles();
  const [params, setParams] = useSearchParams();
  const rangeName = (quickRanges as readonly string[]).includes(params.get('range') ?? '')
    ? (params.get('range') as QuickRange)
    : 'last7Days';
  const vehicle = params.get('vehicle') ?? '';
  const now = useNow(60_000);
  const range = quickRange(rangeName, now, timeZone);
  const query = {
    from: range.fromIso,
    to: range.toIso,
    limit: 50,
    ...(vehicle ? { vehicle_uuid: vehicle } : {}),
  };
  const report = useQuery({
    queryKey: ['report', kind, company?.uuid, rangeName, vehicle, range.fromIso],
    queryFn: ({ signal }) =>
      api.request(`reports.${kind}` as 'reports.fuel', { query, signal }) as Promise<{ data: R[] }>,
    placeholderData: keepPreviousData,
  });
  usePageReady(report.isSuccess || report.isError);
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const rows = report.data?.data ?? [];
  return (
    <div className="flex flex-col gap-3" data-testid={`report-${kind}`}>
      <PageHeader className="mb-4" title={title} />
      <Card>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <FormField id="report-vehicle" label={t('filter.vehicle')}>
            <NativeSelect
              id="report-vehicle"
              value={vehicle}
              onChange={(e) => set('vehicle', e.target.value)}
            >
              <option value="">—</option>
              {(vehicles.data?.data ?? []).map((v) => (
                <option key={v.uuid} value={v.uuid}>
                  {v.license_plate_number}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id="report-range" label={t('filter.range')}>
            <NativeSelect id="report-range" value={rangeName} onChange={(e) => set('range', e.target.value)}>
              {quickRanges.map((r) => (
                <option key={r} value={r}>
                  {core(`range.${r}` as MessageKey)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </div>
        <div className="mt-4 border-t border-border pt-4">
          <ExportControl report={kind} from={range.fromIso} to={range.toIso} vehicle={vehicle} />
        </div>
      </Card>
      {report.isSuccess && rows.length === 0 ? (
        <p
          role="status"
          data-testid="report-empty"
          className="rounded-md border border-border bg-surface p-4 text-foreground-muted"
        >
          {core('empty.noDataForRange')}
        </p>
      ) : (
        renderRows(rows)
      )}
    </div>
  );
}
