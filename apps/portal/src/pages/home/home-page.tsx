import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { dashboardPeriods, type DashboardPeriod } from '@fleet/api-client';
import { formatDate, type MessageKey } from '@fleet/core';
import { BarChart, LineChart, PageHeader, StatCard } from '@fleet/ui';
import { SegmentedFilter } from '../../components/segmented-filter';
import { useTimeZone } from '../../entities/display';
import { useCoreText } from '../../i18n/core-text';
import { useLiveView } from '../../live/use-live-view';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

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
  const data = figures.data?.data;
  return (
    <div className="flex flex-col gap-4" data-testid="home">
      <PageHeader
        className="mb-4"
        title={t('home.title')}
        description={user ? t('home.greeting', { name: user.name }) : undefined}
      />
      <SegmentedFilter
        label={t('home.period.label')}
        value={period}
        onChange={(value) => setParams({ period: value }, { replace: true })}
        options={dashboardPeriods.map((p) => ({ value: p, label: core(`period.${p}` as MessageKey) }))}
        testId="period-filter"
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label={t('home.kpi.vehicles')} value={live.counts.all} />
        <StatCard label={t('home.kpi.live')} value={live.counts.live} />
        <StatCard label={t('home.kpi.idle')} value={live.counts.idle} />
        <StatCard label={t('home.kpi.offline')} value={live.counts.offline} />
        {data ? (
          <>
            <StatCard label={t('home.kpi.distance')} value={data.current.distance_km} />
            <StatCard label={t('home.kpi.trips')} value={data.current.trips} />
            <StatCard label={t('home.kpi.alerts')} value={data.current.violations} />
            <StatCard label={t('reports:summary.fuelUsed')} value={data.current.fuel_used_litres} />
          </>
        ) : null}
      </div>
      {data ? (
        <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          <BarChart
            title={t(period === 'year' ? 'home.chart.distanceMonthly' : 'home.chart.distance')}
            timeZone={timeZone}
            timestamps={data.series.map((s) => Date.parse(s.at))}
            series={[
              // The label names the unit (km) in the page's language.
              { label: t('home.kpi.distance'), values: data.series.map((s) => s.distance_km) },
            ]}
          />
          <LineChart
            title={t(period === 'year' ? 'home.chart.tripsMonthly' : 'home.chart.trips')}
            timeZone={timeZone}
            timestamps={data.series.map((s) => Date.parse(s.at))}
            series={[{ label: t('home.kpi.trips'), values: data.series.map((s) => s.trips), tone: 'live' }]}
          />
          <p className="text-xs text-foreground-muted lg:col-span-2">
            <bdi dir="ltr">
              {formatDate(data.from, 'short', { locale: i18n.language, timeZone })} –{' '}
              {/* `to` is the exclusive end (the next midnight): show the period's last day. */}
              {formatDate(new Date(Date.parse(data.to) - 1).toISOString(), 'short', {
                locale: i18n.language,
                timeZone,
              })}
            </bdi>
          </p>
        </div>
      ) : null}
    </div>
  );
}
