import * as Dialog from '@radix-ui/react-dialog';
import { cva } from 'class-variance-authority';
import { useId, useState, type ReactNode } from 'react';
import { focusRing, IconButton } from '../button';
import { CompanySwitcher, type Company } from '../company-switcher';
import { ChevronEndIcon, ChevronStartIcon, CloseIcon } from '../icons';
import { LanguageSwitcher, type AppLanguage } from '../language-switcher';
import { cn } from '../lib/cn';
import { useLabels, useUi } from '../provider';
import { SideNav, type NavGroup, type NavItem, type RenderNavLink } from '../side-nav';
import { shellKeys, type AppShellLabels } from './app-shell-labels';
import { ar } from './messages.ar';
import { en } from './messages.en';

export type { AppShellLabels } from './app-shell-labels';

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
