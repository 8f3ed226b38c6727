import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { StatusTabs } from './status-tabs';

const counts = { all: 1284, live: 812, idle: 143, offline: 221, inactive: 64, 'no-data': 44 };

const meta = {
  title: 'Domain/StatusTabs',
  component: StatusTabs,
  args: {
    counts,
    onValueChange: fn(),
    children: <p className="text-sm text-foreground-muted">Vehicle list</p>,
  },
} satisfies Meta<typeof StatusTabs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AllSelected: Story = {
  play: async ({ canvasElement }) => {
    const tabs = within(canvasElement).getAllByRole('tab');
    await expect(tabs).toHaveLength(6);
    await expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    await expect(tabs[1]).toHaveAttribute('data-tone', 'live');
    await expect(tabs[5]).toHaveAttribute('data-tone', 'noData');
  },
};

export const IdleSelected: Story = { args: { defaultValue: 'idle' } };

export const WithoutCounts: Story = { args: { counts: undefined } };

/** Arrow keys follow the reading direction: forward is ArrowRight in English, ArrowLeft in Arabic. */
export const KeyboardNavigation: Story = {
  play: async ({ canvasElement, args }) => {
    const tabs = within(canvasElement).getAllByRole('tab');
    const rtl = document.documentElement.dir === 'rtl';
    const forward = rtl ? '{ArrowLeft}' : '{ArrowRight}';
    const backward = rtl ? '{ArrowRight}' : '{ArrowLeft}';
    tabs[0]!.focus();
    await userEvent.keyboard(forward);
    await expect(tabs[1]).toHaveFocus();
    await expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
    await expect(args.onValueChange).toHaveBeenLastCalledWith('live');
    await userEvent.keyboard(`${forward}${forward}`);
    await expect(tabs[3]).toHaveFocus();
    await userEvent.keyboard(backward);
    await expect(tabs[2]).toHaveFocus();
    await userEvent.keyboard('{End}');
    await expect(tabs[5]).toHaveFocus();
    await expect(args.onValueChange).toHaveBeenLastCalledWith('no-data');
  },
};
