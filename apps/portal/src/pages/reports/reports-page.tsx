import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { canUseGuard, type FeatureGuard } from '../../state/access';
import { useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { ChartIcon, PageHeader } from '@fleet/ui';
import { listReportTitles, type ListReportKind } from './list-report-page';

/** Everyday reports first (what staff coming from Traccar or Wialon look for), open to every company. */
const listCards: readonly { kind: ListReportKind; hint: string }[] = (
  [
    'trip-list',
    'summary',
    'stops',
    'events',
    'route',
    'idling',
    'geofence-visits',
    'utilisation',
    'driver-activity',
    'salik-monthly',
    'salik',
    'trips',
    'violations',
  ] as const
).map((kind) => ({ kind, hint: `${listReportTitles[kind]}Hint` }));

const cards: readonly { to: string; title: string; hint: string; guard: FeatureGuard }[] = [
  {
    to: '/dashboard/reports/fuel',
    title: 'overview.fuel',
    hint: 'overview.fuelHint',
    guard: 'advancedFuelReport',
  },
  {
    to: '/dashboard/reports/engine',
    title: 'overview.engine',
    hint: 'overview.engineHint',
    guard: 'engineDevice',
  },
  {
    to: '/dashboard/reports/wheel',
    title: 'overview.wheel',
    hint: 'overview.wheelHint',
    guard: 'wheelDashboard',
  },
];

/** reports: the overview; each report shows only when its guard passes for the company. */
export default function ReportsPage() {
  const { t } = useTranslation('reports');
  const { token, company } = useSession();
  usePageReady(true);
  const available = [
    ...listCards.map((c) => ({
      to: `/dashboard/reports/${c.kind}`,
      title: listReportTitles[c.kind],
      hint: c.hint,
    })),
    ...cards.filter((c) => canUseGuard(c.guard, token, company)),
  ];
  return (
    <div data-testid="reports">
      <PageHeader className="mb-4" title={t('overview.title')} description={t('overview.subtitle')} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {available.map((c) => (
          <Link
            key={c.to}
            to={c.to}
            data-testid={`report-card-${c.to.split('/').pop()}`}
            className="flex gap-3 rounded-lg border border-border bg-surface p-4 hover:border-primary"
          >
            <ChartIcon className="size-8 shrink-0 text-primary" aria-hidden="true" />
            <span>
              <span className="block font-semibold text-foreground">{t(c.title)}</span>
              <span className="block text-sm text-foreground-muted">{t(c.hint)}</span>
            </span>
          </Link>
        ))}
        {available.length === 0 ? (
          <p className="text-foreground-muted">{t('common:forbidden.description')}</p>
        ) : null}
      </div>
    </div>
  );
}
