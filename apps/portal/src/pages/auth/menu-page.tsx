import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { renderRouterLink, useNavGroups } from '../../app/nav';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { Button, Card, SideNav } from '@fleet/ui';

/** menu: the mobile navigation (the dashboard's side navigation as a page). */
export default function MenuPage() {
  const { t } = useTranslation();
  const { session, queryClient } = useServices();
  const state = useSession();
  const navigate = useNavigate();
  usePageReady(true);
  const { groups, activeId } = useNavGroups();
  if (state.status === 'anonymous') return <Navigate to="/login" replace />;
  return (
    <Card>
      <div className="mb-3 flex items-center justify-between">
        <h1 className="text-xl font-semibold text-foreground">{t('auth:menu.title')}</h1>
        <Link className="text-sm text-primary" to="/dashboard">
          {t('nav:topbar.closeMenu')}
        </Link>
      </div>
      {state.company ? <SideNav groups={groups} activeId={activeId} renderLink={renderRouterLink} /> : null}
      <Button
        className="mt-4 w-full"
        variant="outline"
        onClick={() =>
          void session.logout().then(() => {
            queryClient.clear();
            navigate('/login', { replace: true });
          })
        }
      >
        {t('common:action.logout')}
      </Button>
    </Card>
  );
}
