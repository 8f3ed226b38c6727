import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { Button } from '../button';
import {
  BellIcon,
  ChartIcon,
  HomeIcon,
  MapPinIcon,
  PlusIcon,
  SettingsIcon,
  TruckIcon,
  UserIcon,
} from '../icons';
import { useUi } from '../provider';
import { storyMessages } from '../states/story-kit';
import { Breadcrumbs } from '../breadcrumbs';
import type { Company } from '../company-switcher';
import type { AppLanguage } from '../language-switcher';
import { PageHeader } from '../page-header';
import type { NavGroup } from '../side-nav';
import { AppShell, type AppShellProps } from './app-shell';

function useNav(): NavGroup[] {
  const ar = useUi().locale === 'ar';
  return [
    {
      id: 'main',
      items: [
        {
          id: 'dashboard',
          label: ar ? 'لوحة التحكم' : 'Dashboard',
          href: '#dashboard',
          icon: <HomeIcon size={18} />,
        },
        {
          id: 'live',
          label: ar ? 'التتبع المباشر' : 'Live tracking',
          href: '#live',
          icon: <MapPinIcon size={18} />,
        },
      ],
    },
    {
      id: 'manage',
      label: ar ? 'الإدارة' : 'Management',
      items: [
        {
          id: 'vehicles',
          label: ar ? 'المركبات' : 'Vehicles',
          href: '#vehicles',
          icon: <TruckIcon size={18} />,
        },
        { id: 'drivers', label: ar ? 'السائقون' : 'Drivers', href: '#drivers', icon: <UserIcon size={18} /> },
        {
          id: 'reports',
          label: ar ? 'التقارير' : 'Reports',
          href: '#reports',
          icon: <ChartIcon size={18} />,
        },
        {
          id: 'settings',
          label: ar ? 'الإعدادات' : 'Settings',
          href: '#settings',
          icon: <SettingsIcon size={18} />,
        },
      ],
    },
  ];
}

const companies: Company[] = [
  { id: 'c1', name: 'Emirates Transport' },
  { id: 'c2', name: 'Al Noor School Buses' },
  { id: 'c3', name: 'Gulf Logistics' },
];

function Shell(props: Partial<AppShellProps>) {
  const ar = useUi().locale === 'ar';
  const nav = useNav();
  const [active, setActive] = useState('vehicles');
  const [company, setCompany] = useState<string | null>('c1');
  const [language, setLanguage] = useState<AppLanguage>(ar ? 'ar' : 'en');
  return (
    <AppShell
      {...props}
      brand={<span className="text-lg font-bold text-primary">Fleet</span>}
      brandCollapsed={<span className="text-lg font-bold text-primary">F</span>}
      navGroups={nav}
      activeNavId={active}
      companies={companies}
      companyId={company}
      language={language}
      topBarEnd={
        <Button variant="ghost" size="sm" aria-label={ar ? 'الإشعارات' : 'Notifications'}>
          <BellIcon />
        </Button>
      }
      onNavigate={(item, event) => {
        event.preventDefault();
        setActive(item.id);
        props.onNavigate?.(item, event);
      }}
      onCompanyChange={(id) => {
        setCompany(id);
        props.onCompanyChange?.(id);
      }}
      onLanguageChange={(lang) => {
        setLanguage(lang);
        props.onLanguageChange?.(lang);
      }}
    >
      <PageHeader
        breadcrumbs={
          <Breadcrumbs
            items={[
              { label: ar ? 'لوحة التحكم' : 'Dashboard', href: '#dashboard' },
              { label: ar ? 'المركبات' : 'Vehicles', href: '#vehicles' },
              { label: <bdi dir="ltr">A 12345</bdi> },
            ]}
            onNavigate={(_item, event) => event.preventDefault()}
          />
        }
        title={ar ? 'المركبات' : 'Vehicles'}
        description={ar ? 'جميع مركبات الشركة' : 'All vehicles of the company'}
        actions={<Button startIcon={<PlusIcon />}>{ar ? 'إضافة مركبة' : 'Add vehicle'}</Button>}
      />
      <div className="h-64 rounded-lg border border-dashed border-border" />
    </AppShell>
  );
}

const meta = {
  title: 'Layout/AppShell',
  component: AppShell,
  args: {
    navGroups: [],
    onNavigate: fn(),
    onCompanyChange: fn(),
    onLanguageChange: fn(),
    onCollapsedChange: fn(),
  },
  argTypes: { navGroups: { control: false } },
  render: (args) => <Shell {...args} />,
  decorators: [(Story) => <div className="-m-4">{Story()}</div>],
} satisfies Meta<typeof AppShell>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Breakpoint-driven: sidebar on wide screens, menu button and sheet on narrow ones. */
export const Responsive: Story = {};

export const Desktop: Story = {
  args: { navMode: 'sidebar' },
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('banner')).toBeInTheDocument();
    await expect(canvas.getByRole('main')).toBeInTheDocument();
    const nav = canvas.getByRole('navigation', { name: kit.navigation });
    const items = within(nav).getAllByRole('link');
    await expect(items.filter((a) => a.getAttribute('aria-current') === 'page')).toHaveLength(1);

    // Keyboard: tab to an item and activate it with Enter.
    items[0]!.focus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onNavigate).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'dashboard' }),
      expect.anything(),
    );
    await waitFor(() => expect(items[0]).toHaveAttribute('aria-current', 'page'));

    // Collapse: labels become screen-reader only, the toggle flips.
    const toggle = canvas.getByRole('button', { name: kit.collapseNav });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(toggle);
    await expect(args.onCollapsedChange).toHaveBeenCalledWith(true);
    await expect(canvas.getByRole('button', { name: kit.expandNav })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await expect(nav).toHaveAttribute('data-state', 'collapsed');
    await expect(within(nav).getAllByRole('link')[0]).toHaveAccessibleName(/Dashboard|لوحة التحكم/);

    // The skip link is the first stop and moves focus to the main landmark.
    const skip = canvasElement.querySelector<HTMLAnchorElement>('[data-slot="app-skip-link"]')!;
    await expect(skip.getAttribute('href')).toBe(`#${canvas.getByRole('main').id}`);

    // Company and language switchers are controlled: events out.
    await userEvent.selectOptions(canvas.getByLabelText(kit.switchCompany), 'c2');
    await expect(args.onCompanyChange).toHaveBeenCalledWith('c2');
    const languages = canvas.getByRole('group', { name: kit.language });
    const arabic = within(languages).getByRole('button', { name: 'العربية' });
    const english = within(languages).getByRole('button', { name: 'English' });
    const target = english.getAttribute('aria-pressed') === 'true' ? arabic : english;
    await userEvent.click(target);
    await expect(args.onLanguageChange).toHaveBeenCalledWith(target === arabic ? 'ar' : 'en');
    await expect(target).toHaveAttribute('aria-pressed', 'true');
  },
};

export const Collapsed: Story = {
  args: { navMode: 'sidebar', defaultCollapsed: true },
};

export const MobileMenu: Story = {
  args: { navMode: 'drawer' },
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const canvas = within(canvasElement);
    await expect(canvas.queryByRole('navigation', { name: kit.navigation })).toBeNull();
    const menu = canvas.getByRole('button', { name: kit.openMenu });
    await userEvent.click(menu);
    const sheet = await screen.findByRole('dialog', { name: kit.navigation });
    await expect(sheet).toHaveAttribute('data-slot', 'app-nav-sheet');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await expect(menu).toHaveFocus();

    await userEvent.click(menu);
    const again = await screen.findByRole('dialog', { name: kit.navigation });
    await userEvent.click(within(again).getAllByRole('link')[3]!);
    await expect(args.onNavigate).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'drivers' }),
      expect.anything(),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  },
};

/** Arabic: the sidebar sits at the right (inline start), breadcrumb chevrons point left. */
export const Arabic: Story = {
  globals: { mode: 'light-ar' },
  args: { navMode: 'sidebar' },
  play: async ({ canvasElement }) => {
    const sidebar = canvasElement.querySelector('[data-slot="app-sidebar"]')!;
    const main = canvasElement.querySelector('[data-slot="app-main"]')!;
    await expect(sidebar.getBoundingClientRect().left).toBeGreaterThan(main.getBoundingClientRect().left);
    const separator = canvasElement.querySelector('[data-slot="breadcrumb-separator"]');
    await expect(separator).toHaveClass('rtl:-scale-x-100');
  },
};

export const BreadcrumbTrail: Story = {
  render: () => (
    <div className="p-4">
      <Breadcrumbs
        items={[
          { label: 'Dashboard', href: '#dashboard' },
          { label: 'Schools', href: '#schools' },
          { label: 'Al Noor School' },
        ]}
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const kit = storyMessages(canvasElement);
    const nav = within(canvasElement).getByRole('navigation', { name: kit.breadcrumbs });
    await expect(within(nav).getAllByRole('link')).toHaveLength(2);
    await expect(within(nav).getByText('Al Noor School')).toHaveAttribute('aria-current', 'page');
  },
};
