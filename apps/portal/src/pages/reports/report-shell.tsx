import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ReactNode } from 'react';
import type { ReportKind } from '@fleet/api-client';
import { quickRange, quickRanges, type MessageKey, type QuickRange, intlLocale } from '@fleet/core';
import { requestByName } from '../../entities/api';
import { useTimeZone } from '../../entities/display';
import { useCoreText } from '../../i18n/core-text';
import { useLiveVehicles } from '../../live/use-live-vehicles';
import { useNow } from '../../live/use-now';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { ExportControl } from './export-control';
import { ScheduleControl } from './schedule-control';
import { Button, Card, FormField, NativeSelect, PageHeader } from '@fleet/ui';

/** The query of the report on screen (range, vehicle or group), for exports and track files. */
export interface ReportSelectionQuery {
  from: string;
  to: string;
  vehicle_uuid?: string;
  station_uuid?: string;
  branch_uuid?: string;
  school_uuid?: string;
}

const groupKinds = ['station', 'branch', 'school'] as const;
type GroupKind = (typeof groupKinds)[number];
const groupLists: Record<GroupKind, string> = { station: 'stations', branch: 'branches', school: 'schools' };

/**
 * Stations, branches and schools the user may pick as the report's selection (one select: "Station:
 * North", "Branch: Marina" ...). A list the user may not read (a 403) simply adds nothing.
 */
function useGroups() {
  const { api } = useServices();
  const { company } = useSession();
  return useQuery({
    queryKey: ['report-groups', company?.uuid],
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const lists = await Promise.all(
        groupKinds.map((kind) =>
          requestByName<{ data: { uuid: string; name: string }[] }>(api, `${groupLists[kind]}.list`, {
            query: { limit: 100 },
            signal,
          })
            .then((answer) => answer.data.map((g) => ({ kind, uuid: g.uuid, name: g.name })))
            .catch(() => []),
        ),
      );
      return lists.flat();
    },
  });
}

/** Rows per page of the list reports. */
const PAGE_ROWS = 50;

/**
 * Shared frame of every report page: vehicle, station/branch/school and quick-range filters (core's
 * ranges in the user's zone), the report call with paging, the export of the same selection, the
 * empty text of spec §8, and the rows rendered by the page. `needsVehicle` reports (the route) ask
 * for a vehicle before calling; `actions` adds controls that need the query (track files).
 */
export function ReportShell<R>({
  kind,
  title,
  renderRows,
  needsVehicle = false,
  actions,
}: {
  kind: ReportKind;
  title: string;
  renderRows: (rows: R[]) => ReactNode;
  needsVehicle?: boolean;
  actions?: (query: ReportSelectionQuery) => ReactNode;
}) {
  const { t, i18n } = useTranslation('reports');
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
  const groups = useGroups();
  const group = params.get('group') ?? '';
  const [groupKind, groupUuid] = group.split(':') as [GroupKind | undefined, string | undefined];
  const pageNumber = Math.max(1, Number(params.get('page')) || 1);
  const now = useNow(60_000);
  const range = quickRange(rangeName, now, timeZone);
  const selection: ReportSelectionQuery = {
    from: range.fromIso,
    to: range.toIso,
    ...(vehicle ? { vehicle_uuid: vehicle } : {}),
    ...(groupKind && groupUuid && groupKinds.includes(groupKind) ? { [`${groupKind}_uuid`]: groupUuid } : {}),
  };
  const waiting = needsVehicle && !vehicle;
  const report = useQuery({
    queryKey: ['report', kind, company?.uuid, rangeName, vehicle, group, pageNumber, range.fromIso],
    queryFn: ({ signal }) =>
      requestByName<{ data: R[]; total: number; last_page: number }>(api, reportEndpoint(kind), {
        query: { ...selection, page: pageNumber, limit: PAGE_ROWS },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: !waiting,
  });
  usePageReady(waiting || report.isSuccess || report.isError);
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const rows = report.data?.data ?? [];
  return (
    <div className="flex flex-col gap-3" data-testid={`report-${kind}`}>
      <PageHeader className="mb-4" title={title} />
      <Card>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          <FormField id="report-vehicle" label={t('filter.vehicle')}>
            <NativeSelect
              id="report-vehicle"
              value={vehicle}
              onChange={(e) => set('vehicle', e.target.value)}
            >
              <option value="">{needsVehicle ? '—' : t('select.allVehicles')}</option>
              {(vehicles.data?.data ?? []).map((v) => (
                <option key={v.uuid} value={v.uuid}>
                  {v.license_plate_number}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id="report-group" label={t('select.group')}>
            <NativeSelect id="report-group" value={group} onChange={(e) => set('group', e.target.value)}>
              <option value="">{t('select.allGroups')}</option>
              {(groups.data ?? []).map((g) => (
                <option key={`${g.kind}:${g.uuid}`} value={`${g.kind}:${g.uuid}`}>
                  {t(`select.${g.kind}`, { name: g.name })}
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
        <div className="mt-4 flex flex-col gap-3 border-t border-border pt-4">
          <ExportControl report={kind} selection={selection} />
          {!waiting ? <ScheduleControl report={kind} selection={selection} /> : null}
          {actions && !waiting ? actions(selection) : null}
        </div>
      </Card>
      {waiting ? (
        <p
          role="status"
          data-testid="report-choose-vehicle"
          className="rounded-md border border-border bg-surface p-4 text-foreground-muted"
        >
          {t('select.chooseVehicle')}
        </p>
      ) : report.isError ? (
        <p role="alert" className="rounded-md border border-border bg-surface p-4 text-danger">
          {report.error.message}
        </p>
      ) : report.isSuccess && rows.length === 0 ? (
        <p
          role="status"
          data-testid="report-empty"
          className="rounded-md border border-border bg-surface p-4 text-foreground-muted"
        >
          {core('empty.noDataForRange')}
        </p>
      ) : (
        <>
          {renderRows(rows)}
          {report.data && report.data.last_page > 1 ? (
            <nav className="flex flex-wrap items-center gap-3" data-testid="report-pager">
              <Button
                variant="secondary"
                disabled={pageNumber <= 1}
                onClick={() => set('page', String(pageNumber - 1))}
              >
                {t('pager.previous')}
              </Button>
              <span className="text-sm text-foreground-muted">
                {t('pager.page', {
                  page: pageNumber.toLocaleString(intlLocale(i18n.language)),
                  pages: report.data.last_page.toLocaleString(intlLocale(i18n.language)),
                  total: report.data.total.toLocaleString(intlLocale(i18n.language)),
                })}
              </span>
              <Button
                variant="secondary"
                disabled={pageNumber >= report.data.last_page}
                onClick={() => set('page', String(pageNumber + 1))}
              >
                {t('pager.next')}
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}

/** The contract endpoint of a report kind ('trip-list' -> 'reports.tripList'). */
export function reportEndpoint(kind: ReportKind): string {
  return `reports.${kind.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}`;
}
