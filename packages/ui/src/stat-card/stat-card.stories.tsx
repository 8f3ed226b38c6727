import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ChartIcon, ClockIcon, TruckIcon } from '../icons';
import { StatCard } from './stat-card';

const meta = {
  title: 'Data/StatCard',
  component: StatCard,
  args: {
    label: 'Distance',
    value: 1284.5,
    unit: 'km',
    previousValue: 1070.4,
    icon: <TruckIcon size={18} />,
  },
  decorators: [(Story) => <div className="max-w-xs">{Story()}</div>],
} satisfies Meta<typeof StatCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Increase: Story = {
  play: async ({ canvasElement }) => {
    const delta = canvasElement.querySelector('[data-slot="stat-card-delta"]');
    await expect(delta).toHaveAttribute('data-variant', 'up');
    await expect(delta).toHaveAttribute('data-tone', 'positive');
    await expect(delta?.querySelector('[data-icon="TrendUp"]')).toHaveClass('rtl:-scale-x-100');
  },
};

/** Fuel used going down is good news: down arrow, positive tone. */
export const DecreaseIsGood: Story = {
  args: {
    label: 'Fuel used',
    value: 310,
    unit: 'L',
    previousValue: 352,
    goodDirection: 'down',
    icon: <ChartIcon size={18} />,
  },
  play: async ({ canvasElement }) => {
    const delta = canvasElement.querySelector('[data-slot="stat-card-delta"]');
    await expect(delta).toHaveAttribute('data-variant', 'down');
    await expect(delta).toHaveAttribute('data-tone', 'positive');
  },
};

export const Decrease: Story = { args: { label: 'Trips', value: 42, unit: undefined, previousValue: 50 } };

export const NoChange: Story = {
  args: { label: 'Idle time', value: 3.5, unit: 'h', previousValue: 3.5, icon: <ClockIcon size={18} /> },
};

export const NoComparison: Story = { args: { previousValue: undefined } };

export const Loading: Story = {
  args: { loading: true },
  play: async ({ canvasElement }) => {
    const card = canvasElement.querySelector('[data-slot="stat-card"]');
    await expect(within(canvasElement).getByText(/Loading|جارٍ|تحميل/)).toBeInTheDocument();
    await expect(card).toHaveAttribute('aria-busy', 'true');
    await expect(canvasElement.querySelector('[data-slot="stat-card-value"]')).toBeNull();
  },
};

export const Grid: Story = {
  decorators: [(Story) => <div className="max-w-4xl">{Story()}</div>],
  render: () => (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard label="Distance" value={1284.5} unit="km" previousValue={1070.4} />
      <StatCard label="Fuel used" value={310} unit="L" previousValue={352} goodDirection="down" />
      <StatCard label="Violations" value={12} deltaPercent={33.3} goodDirection="down" />
      <StatCard label="Trips" value={42} loading />
    </div>
  ),
};

export const Arabic: Story = { globals: { mode: 'light-ar' } };

/** Previous period was 0: no percentage can be computed, only the direction is shown. */
export const FromZero: Story = {
  args: { label: 'Violations', value: 5, unit: undefined, previousValue: 0, goodDirection: 'down' },
  play: async ({ canvasElement }) => {
    const delta = canvasElement.querySelector('[data-slot="stat-card-delta"]');
    await expect(delta).toHaveAttribute('data-variant', 'up');
    await expect(delta).toHaveAttribute('data-tone', 'negative');
    await expect(delta).not.toHaveTextContent('%');
  },
};
