import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation } from 'react-router-dom';
import type { NavGroup, RenderNavLink } from '@fleet/ui';
import { hasPermission } from '@fleet/core';
import { canUseGuard } from '../state/access';
import { useSession } from '../state/app-context';
import { navSections } from './nav-items';

/** The kit's SideNav links as router links (client-side navigation, same props and classes). */
export const renderRouterLink: RenderNavLink = (item, { href, children, ...props }) => (
  <Link to={href ?? '/'} {...props}>
    {children}
  </Link>
);

/**
 * The dashboard navigation for the kit's SideNav / AppShell: the sections the user may use (route
 * guards from the company's features and the user's permissions), in the page language, and the
 * item of the current page (the most specific route that matches).
 */
export function useNavGroups(): { groups: NavGroup[]; activeId: string | undefined } {
  const { t } = useTranslation('nav');
  const { token, company, user } = useSession();
  const superAdmin = user?.user_type === 'super_admin';

  const { pathname } = useLocation();
  const groups = useMemo<NavGroup[]>(
    () =>
      navSections.map((section) => ({
        id: section.key,
        label: t(`section.${section.key}`),
        items: section.items
          .filter((item) => !item.guard || canUseGuard(item.guard, token, company))
          .filter((item) => !item.superAdminOr || superAdmin || hasPermission(user, item.superAdminOr))
          .filter((item) => !item.superAdminOnly || superAdmin)
          .map((item) => ({ id: item.key, label: t(`item.${item.key}`), href: item.to })),
      })),
    [t, token, company, superAdmin, user],
  );
  const activeId = useMemo(() => {
    let best: { id: string; length: number } | undefined;
    for (const section of navSections) {
      for (const item of section.items) {
        if (!matchPath({ path: item.to, end: item.end ?? false }, pathname)) continue;
        if (!best || item.to.length > best.length) best = { id: item.key, length: item.to.length };
      }
    }
    return best?.id;
  }, [pathname]);
  return { groups, activeId };
}
