import { hasFeature, passesGuard, type RouteGuard } from '@fleet/core';
import type { TransportCompany } from '@fleet/api-client';

/** The feature guards of spec §6 used on routes (sign-in and transport are RequireSignIn/RequireTransport). */
export type FeatureGuard = Extract<
  RouteGuard,
  'geofenceEvents' | 'advancedFuelReport' | 'engineDevice' | 'wheelDashboard'
>;

/** A route guard of @fleet/core evaluated for the current session. */
export function canUseGuard(
  guard: FeatureGuard,
  token: string | null,
  company: Pick<TransportCompany, 'uuid' | 'features'> | null | undefined,
): boolean {
  return passesGuard(guard, { accessToken: token, company: company ?? null });
}

export { hasFeature };
