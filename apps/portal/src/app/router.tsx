import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { crudEntities, type CrudEntity, type RecordGroup } from './paths';
import { RootLayout } from './root-layout';
import { RequireFeature, RequireSignIn, RequireTransport, SmallScreenFallback } from './guards';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each page has its own props
type Page<P = any> = LazyExoticComponent<ComponentType<P>>;
const page = <P,>(load: () => Promise<{ default: ComponentType<P> }>): Page<P> => lazy(load);

// Every page is its own chunk (React.lazy); the layouts are small and in the main chunk.
const PublicLayout = page(() => import('../layouts/public-layout'));
const DashboardLayout = page(() => import('../layouts/dashboard-layout'));
const LoginPage = page(() => import('../pages/auth/login-page'));
const SetPasswordPage = page(() => import('../pages/auth/set-password-page'));
const ServerUnreachablePage = page(() => import('../pages/auth/server-unreachable-page'));
const ResetPasswordPage = page(() => import('../pages/auth/reset-password-page'));
const MenuPage = page(() => import('../pages/auth/menu-page'));
const SelectTransportPage = page(() => import('../pages/auth/select-transport-page'));
const HomePage = page(() => import('../pages/home/home-page'));
const LiveMapPage = page(() => import('../pages/live/live-map-page'));
const LiveListPage = page(() => import('../pages/live/live-list-page'));
const RouteHistoryPage = page(() => import('../pages/live/route-history-page'));
const EntityListPage = page(() => import('../pages/entity/entity-list-page'));
const EntityFormPage = page(() => import('../pages/entity/entity-form-page'));
const EntityDetailsPage = page(() => import('../pages/entity/entity-details-page'));
const RecordListPage = page(() => import('../pages/records/record-list-page'));
const RecordDetailsPage = page(() => import('../pages/records/record-details-page'));
const NotificationsPage = page(() => import('../pages/notifications/notifications-page'));
const NotificationDetailsPage = page(() => import('../pages/notifications/notification-details-page'));
const ReportsPage = page(() => import('../pages/reports/reports-page'));
const FuelReportPage = page(() => import('../pages/reports/fuel-report-page'));
const EngineReportPage = page(() => import('../pages/reports/engine-report-page'));
const WheelReportPage = page(() => import('../pages/reports/wheel-report-page'));
const ListReportPage = page(() => import('../pages/reports/list-report-page'));
const SettingsPage = page(() => import('../pages/settings/settings-page'));
const MessagesPage = page(() => import('../pages/messages/messages-page'));
const CompaniesPage = page(() => import('../pages/platform/companies-page'));
const SharedLocationPage = page(() => import('../pages/share/shared-location-page'));
const TrackedTripPage = page(() => import('../pages/track/tracked-trip-page'));
const UnsubscribePage = page(() => import('../pages/track/unsubscribe-page'));
const ChangePasswordPage = page(() => import('../pages/settings/change-password-page'));
const AlertRulesPage = page(() => import('../pages/settings/alert-rules-page'));
const NotFoundPage = page(() => import('../pages/not-found-page'));

const fallback = (element: ReactNode) => <SmallScreenFallback>{element}</SmallScreenFallback>;

/** list, create/{uuid?} (edit when present) and details/{uuid} for one managed entity (spec §2). */
function crudRoutes(entity: CrudEntity): RouteObject {
  return {
    path: entity,
    children: [
      { index: true, element: <EntityListPage entity={entity} /> },
      { path: 'create/:uuid?', element: fallback(<EntityFormPage entity={entity} />) },
      { path: 'details/:uuid', element: fallback(<EntityDetailsPage entity={entity} />) },
    ],
  };
}

/** list and details/{uuid} of a read-only record group (device-trips has no details). */
function recordRoutes(path: string, group: RecordGroup, withDetails = true): RouteObject[] {
  const list: RouteObject = path
    ? { path, element: <RecordListPage group={group} /> }
    : { index: true, element: <RecordListPage group={group} /> };
  if (!withDetails) return [list];
  const prefix = path ? `${path}/` : '';
  return [list, { path: `${prefix}details/:uuid`, element: fallback(<RecordDetailsPage group={group} />) }];
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        path: '/',
        element: <PublicLayout />,
        children: [
          { index: true, element: <Navigate to="/dashboard" replace /> },
          { path: 'login', element: <LoginPage /> },
          { path: 'set-password/:token', element: <SetPasswordPage /> },
          { path: 'server-unreachable', element: <ServerUnreachablePage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          {
            path: 'menu',
            element: (
              <RequireSignIn>
                <MenuPage />
              </RequireSignIn>
            ),
          },
          {
            path: 'select-transport',
            element: (
              <RequireSignIn>
                <SelectTransportPage />
              </RequireSignIn>
            ),
          },
        ],
      },
      // Public share-location page (copy link / share by e-mail): no sign-in, its own full-width layout.
      { path: '/share/:token', element: <SharedLocationPage /> },
      // Guardians' public pages (issue 14): a message's tracking link and its unsubscribe link.
      { path: '/track/:token', element: <TrackedTripPage /> },
      { path: '/unsubscribe/:token', element: <UnsubscribePage /> },
      {
        path: '/dashboard',
        element: (
          <RequireSignIn>
            <RequireTransport>
              <DashboardLayout />
            </RequireTransport>
          </RequireSignIn>
        ),
        children: [
          { index: true, element: <HomePage /> },
          { path: 'live', element: <LiveMapPage /> },
          { path: 'live/list', element: <LiveListPage /> },
          { path: 'live/route-history', element: <RouteHistoryPage /> },
          // geofence events are declared before the geofences CRUD so 'events' is not read as a page
          {
            path: 'geofences/events',
            element: <RequireFeature guard="geofenceEvents" />,
            children: [
              ...recordRoutes('', 'geofences/events'),
              ...recordRoutes('salik', 'geofences/events/salik'),
            ],
          },
          ...crudEntities.map(crudRoutes),
          ...recordRoutes('device-trips', 'device-trips', false),
          ...recordRoutes('trips', 'trips'),
          ...recordRoutes('trips-app', 'trips-app'),
          { path: 'notifications', element: <NotificationsPage /> },
          {
            path: 'notifications/details/:uuid',
            element: (
              <SmallScreenFallback>
                <NotificationDetailsPage />
              </SmallScreenFallback>
            ),
          },
          { path: 'reports', element: <ReportsPage /> },
          {
            path: 'reports/fuel',
            element: (
              <RequireFeature guard="advancedFuelReport">
                <FuelReportPage />
              </RequireFeature>
            ),
          },
          {
            path: 'reports/engine',
            element: (
              <RequireFeature guard="engineDevice">
                <EngineReportPage />
              </RequireFeature>
            ),
          },
          {
            path: 'reports/wheel',
            element: (
              <RequireFeature guard="wheelDashboard">
                <WheelReportPage />
              </RequireFeature>
            ),
          },
          { path: 'reports/:kind', element: <ListReportPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'messages', element: <MessagesPage /> },
          { path: 'platform/companies', element: <CompaniesPage /> },
          { path: 'settings/change-password', element: <ChangePasswordPage /> },
          { path: 'settings/alert-rules', element: <AlertRulesPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
