import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { CategoryBarChart, categoryChartTones } from './category-chart';

const tyres = [
  { label: 'Front left', value: 230 },
  { label: 'Front right', value: 228.5 },
  { label: 'Rear left', value: 195 },
  { label: 'Rear right', value: null },
];

const meta = {
  title: 'Charts/CategoryBarChart',
  component: CategoryBarChart,
  args: { title: 'Tyre pressure', data: tyres, unit: 'kPa' },
} satisfies Meta<typeof CategoryBarChart>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Tyre pressure per position; the missing reading shows the no-value text and no bar. */
export const TyrePressure: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('figure', { name: 'Tyre pressure' })).toBeVisible();
    const items = canvas.getAllByRole('listitem');
    await expect(items).toHaveLength(4);
    await expect(items[3]).toHaveTextContent('—');
    const bars = [...canvasElement.querySelectorAll<HTMLElement>('[data-slot="category-chart-bar"]')];
    await expect(bars[0]!.style.height).toBe('100%');
    await expect(bars[3]!.style.height).toBe('0%');
  },
};

export const Tones: Story = {
  render: () => (
    <div className="grid gap-3 sm:grid-cols-2">
      {categoryChartTones.map((tone) => (
        <CategoryBarChart
          key={tone}
          tone={tone}
          title={`tone ${tone}`}
          height={60}
          data={[
            { label: 'A', value: 3 },
            { label: 'B', value: 5 },
            { label: 'C', value: 1 },
          ]}
        />
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByRole('figure')).toHaveLength(categoryChartTones.length);
  },
};
