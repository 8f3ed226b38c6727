import * as Dialog from '@radix-ui/react-dialog';
import { cva } from 'class-variance-authority';
import { useId, useState, type ReactNode } from 'react';
import { focusRing, IconButton } from '../button';
import { BuildingIcon, ChevronDownIcon, ChevronEndIcon, ChevronStartIcon, CloseIcon } from '../icons';
import type { UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels, useUi } from '../provider';
import { ar } from './messages.ar';
import { en } from './messages.en';

const shellKeys = [
  'navigation',
  'openMenu',
  'closeMenu',
  'collapseNav',
  'expandNav',
  'breadcrumbs',
  'company',
  'switchCompany',
  'language',
] as const;
export type AppShellLabels = Partial<
  Pick<UiMessages, (typeof shellKeys)[number]> & Record<keyof typeof en, string>
>;

/* ------------------------------------------------------------------ navigation */

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

/* ------------------------------------------------------------------ top bar pieces */

export interface Company {
  id: string;
  name: string;
}

export interface CompanySwitcherProps {
  companies: readonly Company[];
  /** Id of the selected company. */
  value: string | null;
  onValueChange: (id: string) => void;
  labels?: AppShellLabels;
  className?: string;
}

/**
 * The transport-company switcher. A native <select> (reliable keyboard and screen-reader
 * behaviour, the platform's own picker on phones); with a single company it shows the name only,
 * as the spec selects it automatically.
 */
export function CompanySwitcher({
  companies,
  value,
  onValueChange,
  labels,
  className,
}: CompanySwitcherProps) {
  const l = useLabels(shellKeys, labels);
  const id = useId();
  const current = companies.find((c) => c.id === value);
  if (companies.length <= 1) {
    return (
      <p
        data-slot="company-switcher"
        className={cn('flex min-w-0 items-center gap-2 text-sm text-foreground', className)}
      >
        <BuildingIcon className="text-foreground-muted" />
        <span className="sr-only">{l.company}: </span>
        <span className="truncate font-medium">{current?.name ?? companies[0]?.name}</span>
      </p>
    );
  }
  return (
    <div data-slot="company-switcher" className={cn('relative flex min-w-0 items-center', className)}>
      <label htmlFor={id} className="sr-only">
        {l.switchCompany}
      </label>
      <BuildingIcon className="pointer-events-none absolute start-2.5 text-foreground-muted" />
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onValueChange(e.target.value)}
        className={cn(
          'h-9 max-w-56 min-w-0 appearance-none truncate rounded-md border border-border bg-surface ps-8 pe-8 text-sm font-medium text-foreground',
          focusRing,
        )}
      >
        {value === null ? (
          <option value="" disabled>
            {l.company}
          </option>
        ) : null}
        {companies.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute end-2.5 text-foreground-muted" />
    </div>
  );
}

export const appLanguages = ['en', 'ar'] as const;
export type AppLanguage = (typeof appLanguages)[number];
/** Each language named in itself (never translated), as language pickers do. */
export const languageNames: Record<AppLanguage, string> = { en: 'English', ar: 'العربية' };

export interface LanguageSwitcherProps {
  value: AppLanguage;
  onValueChange: (language: AppLanguage) => void;
  labels?: AppShellLabels;
  className?: string;
}

/** English / العربية as two toggle buttons (aria-pressed), each marked with its own lang. */
export function LanguageSwitcher({ value, onValueChange, labels, className }: LanguageSwitcherProps) {
  const l = useLabels(shellKeys, labels);
  return (
    <div
      role="group"
      aria-label={l.language}
      data-slot="language-switcher"
      className={cn('inline-flex rounded-md border border-border p-0.5', className)}
    >
      {appLanguages.map((lang) => (
        <button
          key={lang}
          type="button"
          lang={lang}
          aria-pressed={value === lang}
          data-state={value === lang ? 'on' : 'off'}
          onClick={() => value !== lang && onValueChange(lang)}
          className={cn(
            'h-8 rounded px-2.5 text-sm font-medium',
            value === lang ? 'bg-primary text-primary-foreground' : 'text-foreground hover:bg-surface-sunken',
            focusRing,
          )}
        >
          {languageNames[lang]}
        </button>
      ))}
    </div>
  );
}

/* ------------------------------------------------------------------ breadcrumbs and page header */

export interface BreadcrumbItem {
  id?: string;
  label: ReactNode;
  href?: string;
}

export interface BreadcrumbsProps {
  /** From the root to the current page (the last item is the current page, not a link). */
  items: readonly BreadcrumbItem[];
  onNavigate?: (item: BreadcrumbItem, event: React.MouseEvent<HTMLAnchorElement>) => void;
  labels?: AppShellLabels;
  className?: string;
}

/** Breadcrumb trail; the separators are the kit's directional chevron (points the reading way). */
export function Breadcrumbs({ items, onNavigate, labels, className }: BreadcrumbsProps) {
  const l = useLabels(shellKeys, labels);
  return (
    <nav aria-label={l.breadcrumbs} data-slot="breadcrumbs" className={className}>
      <ol className="flex flex-wrap items-center gap-1.5 text-sm text-foreground-muted">
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={item.id ?? index} className="flex items-center gap-1.5">
              {last || !item.href ? (
                <span
                  aria-current={last ? 'page' : undefined}
                  className={cn(last && 'font-medium text-foreground')}
                >
                  {item.label}
                </span>
              ) : (
                <a
                  href={item.href}
                  onClick={(event) => onNavigate?.(item, event)}
                  className={cn('rounded hover:text-foreground hover:underline', focusRing)}
                >
                  {item.label}
                </a>
              )}
              {last ? null : <ChevronEndIcon size={14} data-slot="breadcrumb-separator" />}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons at the inline end (e.g. 'Add vehicle'). */
  actions?: ReactNode;
  breadcrumbs?: ReactNode;
  className?: string;
}

/** The page's h1 with its description and actions. */
export function PageHeader({ title, description, actions, breadcrumbs, className }: PageHeaderProps) {
  return (
    <div data-slot="page-header" className={cn('flex flex-col gap-2', className)}>
      {breadcrumbs}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h1 className="text-2xl font-semibold text-foreground">{title}</h1>
          {description ? <p className="text-sm text-foreground-muted">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------ the shell */

export const appShellNavModes = ['responsive', 'sidebar', 'drawer'] as const;
export type AppShellNavMode = (typeof appShellNavModes)[number];

function MenuIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      width={20}
      height={20}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
    >
      <path d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}

export const sidebarRecipe = cva(
  'sticky top-0 h-screen shrink-0 flex-col gap-4 overflow-y-auto border-e border-border bg-surface py-4 transition-[width] motion-reduce:transition-none',
  {
    variants: {
      collapsed: { true: 'w-16 items-center px-2', false: 'w-64 px-3' },
      mode: { responsive: 'hidden md:flex', sidebar: 'flex', drawer: 'hidden' } satisfies Record<
        AppShellNavMode,
        string
      >,
    },
  },
);

export interface AppShellProps {
  /** Logo / product name at the top of the navigation. */
  brand?: ReactNode;
  /** Compact brand for the collapsed sidebar (defaults to `brand`). */
  brandCollapsed?: ReactNode;
  navGroups: readonly NavGroup[];
  activeNavId?: string;
  onNavigate?: (item: NavItem, event: React.MouseEvent<HTMLElement>) => void;
  renderLink?: RenderNavLink;
  /** Controlled collapsed state of the sidebar. */
  collapsed?: boolean;
  defaultCollapsed?: boolean;
  onCollapsedChange?: (collapsed: boolean) => void;
  /** Controlled open state of the mobile navigation sheet. */
  mobileNavOpen?: boolean;
  onMobileNavOpenChange?: (open: boolean) => void;
  /**
   * 'responsive' (default): sidebar from the md breakpoint, menu button and sheet below it;
   * 'sidebar' / 'drawer' force one of the two (embedded previews, tests).
   */
  navMode?: AppShellNavMode;
  companies?: readonly Company[];
  companyId?: string | null;
  onCompanyChange?: (id: string) => void;
  language?: AppLanguage;
  onLanguageChange?: (language: AppLanguage) => void;
  /** More top-bar content at the inline end (notifications bell, user menu). */
  topBarEnd?: ReactNode;
  children?: ReactNode;
  labels?: AppShellLabels;
  className?: string;
}

/**
 * The portal frame: navigation landmark in a collapsible sidebar (a sheet from the inline-start
 * edge behind a menu button on small screens), a header landmark with the company and language
 * switchers, and the main landmark. Everything is props in, events out: the app owns routing,
 * the company list and the saved language.
 */
export function AppShell({
  brand,
  brandCollapsed,
  navGroups,
  activeNavId,
  onNavigate,
  renderLink,
  collapsed,
  defaultCollapsed = false,
  onCollapsedChange,
  mobileNavOpen,
  onMobileNavOpenChange,
  navMode = 'responsive',
  companies,
  companyId = null,
  onCompanyChange,
  language,
  onLanguageChange,
  topBarEnd,
  children,
  labels,
  className,
}: AppShellProps) {
  const l = useLabels(shellKeys, labels);
  const [innerCollapsed, setInnerCollapsed] = useState(defaultCollapsed);
  const isCollapsed = collapsed ?? innerCollapsed;
  const setCollapsed = (next: boolean) => {
    if (collapsed === undefined) setInnerCollapsed(next);
    onCollapsedChange?.(next);
  };
  const [innerOpen, setInnerOpen] = useState(false);
  const sheetOpen = mobileNavOpen ?? innerOpen;
  const setSheetOpen = (next: boolean) => {
    if (mobileNavOpen === undefined) setInnerOpen(next);
    onMobileNavOpenChange?.(next);
  };
  const mainId = useId();
  const { locale } = useUi();
  const skipLabel = labels?.skipToContent ?? (locale === 'ar' ? ar : en).skipToContent;

  return (
    <div
      data-slot="app-shell"
      data-variant={navMode}
      className={cn('flex min-h-screen bg-background', className)}
    >
      <a
        href={`#${mainId}`}
        data-slot="app-skip-link"
        className={cn(
          'sr-only z-50 rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:start-2 focus:top-2',
          focusRing,
        )}
      >
        {skipLabel}
      </a>
      <aside
        data-slot="app-sidebar"
        data-state={isCollapsed ? 'collapsed' : 'expanded'}
        className={sidebarRecipe({ collapsed: isCollapsed, mode: navMode })}
      >
        {brand ? (
          <div data-slot="app-brand" className={cn('flex h-10 items-center', !isCollapsed && 'px-3')}>
            {isCollapsed ? (brandCollapsed ?? brand) : brand}
          </div>
        ) : null}
        <SideNav
          groups={navGroups}
          activeId={activeNavId}
          onNavigate={onNavigate}
          renderLink={renderLink}
          collapsed={isCollapsed}
          labels={labels}
          className="flex-1"
        />
        <IconButton
          data-slot="app-collapse-toggle"
          aria-expanded={!isCollapsed}
          label={isCollapsed ? l.expandNav : l.collapseNav}
          icon={isCollapsed ? <ChevronEndIcon /> : <ChevronStartIcon />}
          onClick={() => setCollapsed(!isCollapsed)}
          className={cn(!isCollapsed && 'self-end')}
        />
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <header
          data-slot="app-top-bar"
          className="sticky top-0 z-10 flex h-14 items-center gap-3 border-b border-border bg-surface px-4"
        >
          <Dialog.Root open={sheetOpen} onOpenChange={setSheetOpen}>
            <Dialog.Trigger asChild>
              <IconButton
                data-slot="app-menu-button"
                label={l.openMenu}
                icon={<MenuIcon />}
                className={cn(navMode === 'responsive' && 'md:hidden', navMode === 'sidebar' && 'hidden')}
              />
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="fixed inset-0 z-40 bg-overlay" />
              <Dialog.Content
                data-slot="app-nav-sheet"
                aria-describedby={undefined}
                className="fixed inset-y-0 start-0 z-50 flex w-72 max-w-[85vw] flex-col gap-4 overflow-y-auto bg-surface p-4 text-foreground shadow-lg"
              >
                <div className="flex items-center justify-between gap-2">
                  <Dialog.Title className="sr-only">{l.navigation}</Dialog.Title>
                  <div className="min-w-0">{brand}</div>
                  <Dialog.Close asChild>
                    <IconButton label={l.closeMenu} icon={<CloseIcon />} />
                  </Dialog.Close>
                </div>
                <SideNav
                  groups={navGroups}
                  activeId={activeNavId}
                  renderLink={renderLink}
                  labels={labels}
                  onNavigate={(item, event) => {
                    onNavigate?.(item, event);
                    setSheetOpen(false);
                  }}
                />
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
          {companies && onCompanyChange ? (
            <CompanySwitcher
              companies={companies}
              value={companyId}
              onValueChange={onCompanyChange}
              labels={labels}
            />
          ) : null}
          {/* The end group keeps its controls whole (a squeezed select showed an empty box on a phone);
              the company name is what gives way, truncated. */}
          <div className="ms-auto flex shrink-0 items-center gap-2">
            {language && onLanguageChange ? (
              <LanguageSwitcher value={language} onValueChange={onLanguageChange} labels={labels} />
            ) : null}
            {topBarEnd}
          </div>
        </header>
        <main
          id={mainId}
          tabIndex={-1}
          data-slot="app-main"
          className="flex min-w-0 flex-1 flex-col gap-6 p-4 md:p-6"
        >
          {children}
        </main>
      </div>
    </div>
  );
}
