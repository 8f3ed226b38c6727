import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { cn } from './kit';
import { navSections } from '../app/nav-items';
import { canUseGuard } from '../state/access';
import { useSession } from '../state/app-context';

/** The dashboard navigation; the same list is the mobile /menu page. */
export function SideNav({ onNavigate, className }: { onNavigate?: () => void; className?: string }) {
  const { t } = useTranslation('nav');
  const { token, company } = useSession();
  return (
    <nav aria-label={t('topbar.openMenu')} className={cn('flex flex-col gap-4', className)}>
      {navSections.map((section) => (
        <div key={section.key}>
          <p className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-foreground-muted">
            {t(`section.${section.key}`)}
          </p>
          <ul className="flex flex-col gap-0.5">
            {section.items
              .filter((item) => !item.guard || canUseGuard(item.guard, token, company))
              .map((item) => (
                <li key={item.key}>
                  <NavLink
                    to={item.to}
                    end={item.end ?? false}
                    onClick={onNavigate}
                    className={({ isActive }) =>
                      cn(
                        'block rounded-md px-3 py-1.5 text-sm text-foreground hover:bg-surface-sunken',
                        isActive && 'bg-primary-soft font-medium text-primary',
                      )
                    }
                  >
                    {t(`item.${item.key}`)}
                  </NavLink>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
