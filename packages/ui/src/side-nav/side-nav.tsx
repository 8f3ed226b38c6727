import { cva } from 'class-variance-authority';
import { useId, type ReactNode } from 'react';
import { shellKeys, type AppShellLabels } from '../app-shell/app-shell-labels';
import { focusRing } from '../button';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export interface NavItem {
  id: string;
  label: string;
  href?: string;
  icon?: ReactNode;
  /** A count or dot after the label (hidden when collapsed). */
  badge?: ReactNode;
}

export interface NavGroup {
  id: string;
  /** Group heading; omit for an unlabeled first group. */
  label?: string;
  items: readonly NavItem[];
}

/** Props a custom link receives (spread them on a router Link). */
export interface NavLinkProps {
  href?: string;
  className: string;
  'aria-current'?: 'page';
  title?: string;
  'data-slot': string;
  'data-state': 'active' | 'inactive';
  onClick: (event: React.MouseEvent<HTMLElement>) => void;
  children: ReactNode;
}

/** Renders one link; default is a plain <a>. Pass one that returns your router's Link. */
export type RenderNavLink = (item: NavItem, props: NavLinkProps) => ReactNode;

const defaultRenderLink: RenderNavLink = (_item, { children, ...props }) => <a {...props}>{children}</a>;

export const navItemRecipe = cva(
  ['flex items-center gap-3 rounded-md text-sm font-medium transition-colors', focusRing],
  {
    variants: {
      active: {
        true: 'bg-primary-soft text-primary',
        false: 'text-foreground-muted hover:bg-surface-sunken hover:text-foreground',
      },
      collapsed: { true: 'size-10 justify-center', false: 'h-10 px-3' },
    },
    defaultVariants: { active: false, collapsed: false },
  },
);

export interface SideNavProps {
  groups: readonly NavGroup[];
  /** Id of the item of the current page (gets aria-current="page"). */
  activeId?: string;
  onNavigate?: (item: NavItem, event: React.MouseEvent<HTMLElement>) => void;
  renderLink?: RenderNavLink;
  /** Icons only; labels stay for screen readers and as tooltips. */
  collapsed?: boolean;
  labels?: AppShellLabels;
  className?: string;
}

/** The navigation landmark: grouped links with icons and the current page marked. */
export function SideNav({
  groups,
  activeId,
  onNavigate,
  renderLink = defaultRenderLink,
  collapsed = false,
  labels,
  className,
}: SideNavProps) {
  const l = useLabels(shellKeys, labels);
  const baseId = useId();
  return (
    <nav
      data-slot="side-nav"
      data-state={collapsed ? 'collapsed' : 'expanded'}
      aria-label={l.navigation}
      className={cn('flex flex-col gap-4', className)}
    >
      {groups.map((group) => {
        const headingId = `${baseId}-${group.id}`;
        return (
          <div key={group.id} data-slot="side-nav-group" className="flex flex-col gap-1">
            {group.label ? (
              <p
                id={headingId}
                className={cn(
                  'px-3 text-xs font-semibold tracking-wide text-foreground-muted uppercase',
                  collapsed && 'sr-only',
                )}
              >
                {group.label}
              </p>
            ) : null}
            <ul aria-labelledby={group.label ? headingId : undefined} className="flex flex-col gap-1">
              {group.items.map((item) => {
                const active = item.id === activeId;
                return (
                  <li key={item.id} className={cn(collapsed && 'flex justify-center')}>
                    {renderLink(item, {
                      href: item.href,
                      className: navItemRecipe({ active, collapsed }),
                      'aria-current': active ? 'page' : undefined,
                      title: collapsed ? item.label : undefined,
                      'data-slot': 'side-nav-item',
                      'data-state': active ? 'active' : 'inactive',
                      onClick: (event) => onNavigate?.(item, event),
                      children: (
                        <>
                          {item.icon ? (
                            <span aria-hidden="true" className="flex shrink-0">
                              {item.icon}
                            </span>
                          ) : null}
                          <span className={cn('truncate', collapsed && 'sr-only')}>{item.label}</span>
                          {item.badge && !collapsed ? <span className="ms-auto">{item.badge}</span> : null}
                        </>
                      ),
                    })}
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
