import { Suspense, useEffect } from 'react';
import { Link, Outlet, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { BellIcon, Button, MenuIcon } from '../components/kit';
import { useQueryClient } from '@tanstack/react-query';
import { LanguageSwitch } from '../components/language-switch';
import { SelectInput } from '../components/local-ui';
import { SideNav } from '../components/side-nav';
import { LiveConnection } from '../live/live-connection';
import { stopNativePush, useNativePush } from '../native/native-push';
import { useUnreadCount } from '../live/use-notifications';
import { useServices, useSession } from '../state/app-context';

function CompanySwitcher() {
  const { t } = useTranslation('nav');
  const { session } = useServices();
  const queryClient = useQueryClient();
  const { companies, company } = useSession();
  if (companies.length < 2 || !company) {
    return <span className="truncate text-sm font-medium text-foreground">{company?.name}</span>;
  }
  return (
    <label className="flex items-center gap-1">
      <span className="sr-only">{t('topbar.company')}</span>
      <SelectInput
        data-testid="company-switch"
        className="h-8 w-auto max-w-48 py-0"
        value={company.uuid}
        onChange={(event) => {
          void session.selectCompany(event.target.value).then(() => queryClient.clear());
        }}
      >
        {companies.map((c) => (
          <option key={c.uuid} value={c.uuid}>
            {c.name}
          </option>
        ))}
      </SelectInput>
    </label>
  );
}

function NotificationBell() {
  const { t } = useTranslation('nav');
  const unread = useUnreadCount();
  return (
    <Link
      to="/dashboard/notifications"
      className="relative rounded-md p-2 text-foreground hover:bg-surface-sunken"
      aria-label={`${t('topbar.notifications')}${unread ? ` — ${t('topbar.unread', { count: unread })}` : ''}`}
      data-testid="notification-bell"
    >
      <BellIcon className="size-5" aria-hidden="true" />
      {unread > 0 ? (
        <span
          data-testid="notification-badge"
          className="absolute -end-0.5 -top-0.5 min-w-5 rounded-full bg-danger px-1 text-center text-xs leading-5 text-danger-foreground"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}

/** Loads the live map's code while the browser is idle, so opening the map does not wait for it. */
function usePrefetchLiveMap() {
  useEffect(() => {
    const load = () => void import('../pages/live/live-map-page');
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(load, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(load, 1500);
    return () => clearTimeout(id);
  }, []);
}

/** Layout of /dashboard: side navigation, top bar, the live connection, the page. */
export default function DashboardLayout() {
  usePrefetchLiveMap();
  const { t } = useTranslation();
  const { session } = useServices();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useNativePush();
  const logout = async () => {
    await stopNativePush();
    await session.logout();
    queryClient.clear();
    navigate('/login', { replace: true });
  };
  return (
    <LiveConnection>
      <div className="flex min-h-dvh bg-background text-foreground">
        <aside className="hidden w-60 shrink-0 overflow-y-auto border-e border-border bg-surface p-3 md:block">
          <Link to="/dashboard" className="mb-4 flex items-center gap-2 px-3">
            <img src="/icons/icon.svg" alt="" className="size-7" />
            <span className="text-lg font-semibold">{t('common:app.name')}</span>
          </Link>
          <SideNav />
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b border-border bg-surface px-3">
            <Link
              to="/menu"
              className="rounded-md p-2 hover:bg-surface-sunken md:hidden"
              aria-label={t('nav:topbar.openMenu')}
            >
              <MenuIcon className="size-5" aria-hidden="true" />
            </Link>
            <div className="min-w-0 flex-1">
              <CompanySwitcher />
            </div>
            <NotificationBell />
            <LanguageSwitch />
            <Button variant="ghost" size="sm" onClick={() => void logout()} data-testid="logout">
              {t('common:action.logout')}
            </Button>
          </header>
          <main className="min-w-0 flex-1 p-3 md:p-6">
            <Suspense fallback={null}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
    </LiveConnection>
  );
}
