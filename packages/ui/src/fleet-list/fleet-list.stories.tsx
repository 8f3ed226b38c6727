import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { demoVehicles } from '../map/fixtures';
import { FleetList, type FleetListItem } from './fleet-list';

const drivers = ['Ahmed Ali', 'Sara Hassan', 'Omar Khalid', 'فاطمة الزهراء', null];
const statusLabel = {
  live: 'Moving',
  idle: 'Idle',
  offline: 'Offline',
  inactive: 'Inactive',
  noData: 'No data',
  neutral: '',
};

/** Deterministic rows from the map fixtures (same seed: same plates, statuses). */
function items(count: number): FleetListItem[] {
  return demoVehicles(count, 7).map((v, i) => ({
    id: v.id,
    plateText: v.plate,
    driver: drivers[i % drivers.length],
    speedKmh: v.tone === 'live' ? 20 + ((i * 37) % 90) : null,
    lastSeen: v.tone === 'live' ? 'Just now' : `${(i % 50) + 2} min ago`,
    tone: v.tone,
    statusLabel: statusLabel[v.tone],
  }));
}

const meta = {
  title: 'Domain/FleetList',
  component: FleetList,
  args: { items: items(40), onSelect: fn() },
  decorators: [
    (Story) => (
      <div style={{ height: 420, width: 340 }} className="flex">
        <Story />
      </div>
    ),
  ],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof FleetList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const list = within(canvasElement).getByRole('listbox');
    // virtualised: only the rows in view (plus overscan) are in the DOM
    const rows = within(list).getAllByRole('option');
    await expect(rows.length).toBeLessThan(40);
    await expect(rows.length).toBeGreaterThan(4);
  },
};

export const Selected: Story = { args: { selectedId: 'v3' } };

/** Typing narrows the rows by plate or driver; clicking a row selects it. */
export const SearchAndSelect: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('searchbox'), 'Sara');
    await waitFor(() => expect(canvas.getAllByRole('option')).toHaveLength(8));
    await userEvent.click(canvas.getAllByRole('option')[0]!);
    await expect(args.onSelect).toHaveBeenCalledWith('v2');
  },
};

/** Arrow keys move the active row, Enter selects it. */
export const Keyboard: Story = {
  play: async ({ canvasElement, args }) => {
    const list = within(canvasElement).getByRole('listbox');
    list.focus();
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await expect(args.onSelect).toHaveBeenLastCalledWith('v2');
    await userEvent.keyboard('{End}{Enter}');
    await expect(args.onSelect).toHaveBeenLastCalledWith('v40');
  },
};

export const NoResults: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('searchbox'), 'zzz');
    await expect(canvas.getByRole('status')).toHaveTextContent(/No vehicle matches|لا توجد مركبة مطابقة/);
    await expect(canvas.queryByRole('listbox')).toBeNull();
  },
};

/** 10,000 vehicles: the DOM holds only the visible rows; a selection far down scrolls into view. */
export const TenThousand: Story = {
  args: { items: items(10_000) },
  render: function Render(args) {
    const [selected, setSelected] = useState<string | null>('v9500');
    return <FleetList {...args} selectedId={selected} onSelect={setSelected} />;
  },
  play: async ({ canvasElement }) => {
    const list = within(canvasElement).getByRole('listbox');
    await waitFor(() => expect(within(list).getByRole('option', { selected: true })).toBeVisible());
    await expect(within(list).getAllByRole('option').length).toBeLessThan(40);
  },
};
