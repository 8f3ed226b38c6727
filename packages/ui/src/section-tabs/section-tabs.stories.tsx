import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { SectionTabs } from './section-tabs';

const panel = (text: string) => <p className="text-sm text-foreground-muted">{text}</p>;

const meta = {
  title: 'Layout/SectionTabs',
  component: SectionTabs,
  args: {
    label: 'Vehicle sections',
    onValueChange: fn(),
    tabs: [
      { id: 'trips', label: 'Trips', content: panel('Trips of the last 7 days') },
      { id: 'alerts', label: 'Alerts', badge: '3', content: panel('Alerts about this vehicle') },
      { id: 'documents', label: 'Documents', badge: '1', content: panel('Registration, insurance, licence') },
      { id: 'commands', label: 'Commands', content: panel('Send a command, see the answers') },
      { id: 'history', label: 'Route history', content: panel('Trips and stops beside the map') },
    ],
  },
} satisfies Meta<typeof SectionTabs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const FirstSelected: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const tabs = canvas.getAllByRole('tab');
    await expect(tabs).toHaveLength(5);
    await expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    // only the active panel is mounted
    await expect(canvas.getAllByRole('tabpanel')).toHaveLength(1);
    await expect(canvas.getByText('Trips of the last 7 days')).toBeVisible();
  },
};

export const DocumentsSelected: Story = { args: { defaultValue: 'documents' } };

/** Arrow keys follow the reading direction and Enter opens the focused tab (manual activation). */
export const KeyboardNavigation: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const tabs = canvas.getAllByRole('tab');
    const rtl = document.documentElement.dir === 'rtl';
    tabs[0]!.focus();
    await userEvent.keyboard(rtl ? '{ArrowLeft}' : '{ArrowRight}');
    await expect(tabs[1]).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
    await expect(args.onValueChange).toHaveBeenLastCalledWith('alerts');
    await userEvent.keyboard('{End}{Enter}');
    await expect(tabs[4]).toHaveAttribute('aria-selected', 'true');
    await expect(canvas.getByText('Trips and stops beside the map')).toBeVisible();
  },
};

/** On a phone the tab list scrolls sideways; the page itself never gets wider than the screen. */
export const Narrow: Story = {
  decorators: [
    (Story) => (
      <div style={{ width: 320 }}>
        <Story />
      </div>
    ),
  ],
  play: async ({ canvasElement }) => {
    const list = canvasElement.querySelector('[data-slot="section-tabs-list"]') as HTMLElement;
    await expect(list.scrollWidth).toBeGreaterThan(list.clientWidth);
    await expect((list.parentElement as HTMLElement).getBoundingClientRect().width).toBeLessThanOrEqual(320);
  },
};
