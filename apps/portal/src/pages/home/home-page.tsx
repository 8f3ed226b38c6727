import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { dashboardPeriods, type DashboardPeriod } from '@fleet/api-client';
import { formatDate, type MessageKey } from '@fleet/core';
import { PageHeader } from '../../components/local-ui';
import { BarChart, LineChart } from '@fleet/ui';
import { SegmentedFilter } from '../../components/segmented-filter';
import { useTimeZone } from '../../entities/display';
import { useCoreText } from '../../i18n/core-text';
import { useLiveView } from '../../live/use-live-view';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

function Kpi({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg border border-border bg-surface p-4" data-testid={testId}>
      <p className="text-sm text-foreground-muted">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-foreground">{value}</p>
    </div>
  );
}

/** /dashboard: home with the week / month / year periods, live counts and the period's figures. */
export default function HomePage() {
  const { t, i18n } = useTranslation('dashboard');
  const core = useCoreText();
  const { api } = useServices();
  const { company, user } = useSession();
  const timeZone = useTimeZone();
  const [params, setParams] = useSearchParams();
  const period = (dashboardPeriods as readonly string[]).includes(params.get('period') ?? '')
    ? (params.get('period') as DashboardPeriod)
    : 'week';
  const live = useLiveView();
  const figures = useQuery({
    queryKey: ['dashboard', company?.uuid, period],
    queryFn: ({ signal }) => api.request('reports.dashboard', { query: { period }, signal }),
  });
  usePageReady(figures.isSuccess || figures.isError);
  const n = (value: number, digits = 0) =>
    value.toLocaleString(i18n.language, { maximumFractionDigits: digits });
  const data = figures.data?.data;
  return (
    <div className="flex flex-col gap-4" data-testid="home">
      <PageHeader
        title={t('home.title')}
        description={user ? `${t('home.greeting')}, ${user.name}` : undefined}
      />
      <SegmentedFilter
        label={t('home.period.label')}
        value={period}
        onChange={(value) => setParams({ period: value }, { replace: true })}
        options={dashboardPeriods.map((p) => ({ value: p, label: core(`period.${p}` as MessageKey) }))}
        testId="period-filter"
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Kpi testId="kpi-vehicles" label={t('home.kpi.vehicles')} value={n(live.counts.all)} />
        <Kpi testId="kpi-live" label={t('home.kpi.live')} value={n(live.counts.live)} />
        <Kpi testId="kpi-idle" label={t('home.kpi.idle')} value={n(live.counts.idle)} />
        <Kpi testId="kpi-offline" label={t('home.kpi.offline')} value={n(live.counts.offline)} />
        {data ? (
          <>
            <Kpi
              testId="kpi-distance"
              label={t('home.kpi.distance')}
              value={n(data.current.distance_km, 1)}
            />
            <Kpi testId="kpi-trips" label={t('home.kpi.trips')} value={n(data.current.trips)} />
            <Kpi testId="kpi-alerts" label={t('home.kpi.alerts')} value={n(data.current.violations)} />
            <Kpi
              testId="kpi-fuel"
              label={t('reports:summary.fuelUsed')}
              value={n(data.current.fuel_used_litres, 1)}
            />
          </>
        ) : null}
      </div>
      {data ? (
        <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          <BarChart
            title={t('home.chart.distance')}
            timeZone={timeZone}
            timestamps={data.series.map((s) => Date.parse(s.at))}
            series={[
              { label: t('home.kpi.distance'), values: data.series.map((s) => s.distance_km), unit: 'km' },
            ]}
          />
          <LineChart
            title={t('home.chart.trips')}
            timeZone={timeZone}
            timestamps={data.series.map((s) => Date.parse(s.at))}
            series={[{ label: t('home.kpi.trips'), values: data.series.map((s) => s.trips), tone: 'live' }]}
          />
          <p className="text-xs text-foreground-muted lg:col-span-2">
            <bdi dir="ltr">
              {formatDate(data.from, 'short', { locale: i18n.language, timeZone })} –{' '}
              {formatDate(data.to, 'short', { locale: i18n.language, timeZone })}
            </bdi>
          </p>
        </div>
      ) : null}
    </div>
  );
}
