import { Suspense, useEffect } from 'react';
import { Link, Outlet, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { renderRouterLink, useNavGroups } from '../app/nav';
import { useLanguageSelect } from '../i18n/use-language-select';
import { LiveConnection } from '../live/live-connection';
import { stopNativePush, useNativePush } from '../native/native-push';
import { useUnreadCount } from '../live/use-notifications';
import { useServices, useSession } from '../state/app-context';
import { AppShell, BellIcon, Button, NativeSelect } from '@fleet/ui';

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
  const { groups, activeId } = useNavGroups();
  const { companies, company } = useSession();
  const languageSelect = useLanguageSelect();
  return (
    <LiveConnection>
      <AppShell
        brand={
          <Link to="/dashboard" className="flex items-center gap-2">
            <img src="/icons/icon.svg" alt="" className="size-7" />
            <span className="text-lg font-semibold text-foreground">{t('common:app.name')}</span>
          </Link>
        }
        brandCollapsed={<img src="/icons/icon.svg" alt={t('common:app.name')} className="size-7" />}
        navGroups={groups}
        activeNavId={activeId}
        renderLink={renderRouterLink}
        companies={companies.map((c) => ({ id: c.uuid, name: c.name }))}
        companyId={company?.uuid ?? null}
        onCompanyChange={(uuid) => {
          void session.selectCompany(uuid).then(() => queryClient.clear());
        }}
        topBarEnd={
          <>
            <NotificationBell />
            <NativeSelect {...languageSelect} />
            <Button variant="ghost" size="sm" onClick={() => void logout()} data-testid="logout">
              {t('common:action.logout')}
            </Button>
          </>
        }
        labels={{
          company: t('nav:topbar.company'),
          openMenu: t('nav:topbar.openMenu'),
          closeMenu: t('nav:topbar.closeMenu'),
        }}
      >
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </AppShell>
    </LiveConnection>
  );
}
