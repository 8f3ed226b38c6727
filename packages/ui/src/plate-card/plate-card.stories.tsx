import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { PlateCard, plateCardSizes } from './plate-card';

const meta = {
  title: 'Domain/PlateCard',
  component: PlateCard,
  args: { stateCode: 'DXB', category: 'A', number: '12345' },
  argTypes: { size: { control: 'inline-radio', options: plateCardSizes } },
} satisfies Meta<typeof PlateCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const plate = within(canvasElement).getByRole('img');
    await expect(plate).toHaveAccessibleName(/DXB A 12345/);
    await expect(plate).toHaveAttribute('dir', 'ltr');
  },
};

export const Sizes: Story = {
  render: (args) => (
    <div className="flex items-end gap-4">
      {plateCardSizes.map((size) => (
        <PlateCard key={size} {...args} size={size} />
      ))}
    </div>
  ),
};

export const WithoutCategory: Story = { args: { stateCode: 'AD', category: null, number: '7788' } };

export const InANotification: Story = {
  render: (args) => (
    <div className="flex max-w-md items-center gap-3 rounded-lg border border-border bg-surface p-3">
      <PlateCard {...args} size="lg" stateCode="SHJ" category="3" number="40721" />
      <div className="text-sm">
        <p className="font-medium">Speed violation</p>
        <p className="text-foreground-muted">
          <bdi>132 km/h</bdi>
        </p>
      </div>
    </div>
  ),
};
