import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { isApiError } from '@fleet/api-client';
import { useServices, useSession } from '../state/app-context';
import { isUnreachable } from '../state/services';
import { canUseGuard, type FeatureGuard } from '../state/access';
import { isSmallScreen, listFallback } from './paths';
import { LoadingState } from '@fleet/ui';

/** Signed in (a stored token whose session loads); otherwise /login. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const { session } = useServices();
  const state = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();

  useEffect(() => {
    if (state.status !== 'loading') return;
    session.load().catch((error: unknown) => {
      if (isUnreachable(error)) {
        navigate(`/server-unreachable?from=${encodeURIComponent(location.pathname + location.search)}`);
      } else if (!(isApiError(error) && error.isUnauthorized)) {
        void session.logout({ remote: false });
      }
    });
  }, [state.status, session, navigate, location.pathname, location.search]);

  if (state.status === 'anonymous') {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  if (state.status === 'loading') return <LoadingState label={t('common:state.loading')} />;
  return <>{children}</>;
}

/** A transport company is selected; otherwise the picker. */
export function RequireTransport({ children }: { children: ReactNode }) {
  const state = useSession();
  if (!state.company) return <Navigate to="/select-transport" replace />;
  return <>{children}</>;
}

/** Feature/permission guard of spec §6 (geofence events, advanced fuel, engine, wheel dashboard). */
export function RequireFeature({ guard, children }: { guard: FeatureGuard; children?: ReactNode }) {
  const state = useSession();
  const { t } = useTranslation();
  if (!canUseGuard(guard, state.token, state.company)) {
    return (
      <div role="alert" data-guard={guard} className="mx-auto max-w-lg p-8 text-center">
        <h1 className="text-xl font-semibold text-foreground">{t('common:forbidden.title')}</h1>
        <p className="mt-2 text-foreground-muted">{t('common:forbidden.description')}</p>
      </div>
    );
  }
  return children ? <>{children}</> : <Outlet />;
}

function subscribeResize(listener: () => void): () => void {
  window.addEventListener('resize', listener);
  return () => window.removeEventListener('resize', listener);
}

/** True while the viewport is in the small-screen layout. */
export function useSmallScreen(): boolean {
  return useSyncExternalStore(
    subscribeResize,
    () => isSmallScreen(window.innerWidth),
    () => false,
  );
}

/** Spec §2: on small screens create and details routes fall back to the list page. */
export function SmallScreenFallback({ children }: { children: ReactNode }) {
  const small = useSmallScreen();
  const { pathname } = useLocation();
  const target = listFallback(pathname);
  if (small && target) return <Navigate to={target} replace />;
  return <>{children}</>;
}
