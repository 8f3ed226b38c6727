import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { HomeIcon, MapPinIcon, TruckIcon } from '../icons';
import { useUi } from '../provider';
import { storyMessages } from '../states/story-kit';
import { SideNav, type NavGroup, type SideNavProps } from './side-nav';

function useGroups(): NavGroup[] {
  const ar = useUi().locale === 'ar';
  return [
    {
      id: 'main',
      items: [
        { id: 'home', label: ar ? 'لوحة التحكم' : 'Dashboard', href: '#home', icon: <HomeIcon size={18} /> },
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
          badge: <span className="text-xs tabular-nums">44</span>,
        },
      ],
    },
  ];
}

function Nav(props: Partial<SideNavProps>) {
  const groups = useGroups();
  const [active, setActive] = useState('vehicles');
  return (
    <div className="w-64">
      <SideNav
        {...props}
        groups={groups}
        activeId={active}
        onNavigate={(item, event) => {
          event.preventDefault();
          setActive(item.id);
          props.onNavigate?.(item, event);
        }}
      />
    </div>
  );
}

const meta = {
  title: 'Layout/SideNav',
  component: SideNav,
  args: { groups: [], onNavigate: fn() },
  argTypes: { groups: { control: false } },
  render: (args) => <Nav {...args} />,
} satisfies Meta<typeof SideNav>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Grouped links; the current page is marked with aria-current and moves on click. */
export const Default: Story = {
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const nav = within(canvasElement).getByRole('navigation', { name: kit.navigation });
    const links = within(nav).getAllByRole('link');
    await expect(links.filter((a) => a.getAttribute('aria-current') === 'page')).toHaveLength(1);
    await userEvent.click(links[0]!);
    await expect(args.onNavigate).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'home' }),
      expect.anything(),
    );
    await expect(links[0]).toHaveAttribute('aria-current', 'page');
  },
};

/** Icons only: labels stay for screen readers and as tooltips. */
export const Collapsed: Story = {
  args: { collapsed: true },
  play: async ({ canvasElement }) => {
    const nav = canvasElement.querySelector('[data-slot="side-nav"]')!;
    await expect(nav).toHaveAttribute('data-state', 'collapsed');
    await expect(within(canvasElement).getAllByRole('link')[0]).toHaveAttribute('title');
  },
};
