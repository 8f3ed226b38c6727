import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { storyMessages } from '../states/story-kit';
import { LoadingState, loadingStateSizes } from './loading-state';

const meta = {
  title: 'Feedback/LoadingState',
  component: LoadingState,
} satisfies Meta<typeof LoadingState>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The kit's own 'Loading…' in the story's language. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const kit = storyMessages(canvasElement);
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(kit.loading);
  },
};

export const CustomLabel: Story = {
  args: { label: 'Loading vehicles…', size: 'inline' },
  play: async ({ canvasElement }) => {
    const status = within(canvasElement).getByRole('status');
    await expect(status).toHaveTextContent('Loading vehicles…');
    await expect(status).toHaveAttribute('data-size', 'inline');
  },
};

export const Sizes: Story = {
  render: () => (
    <div className="flex flex-col gap-2">
      {loadingStateSizes
        .filter((size) => size !== 'page')
        .map((size) => (
          <div key={size} className="rounded-md border border-border">
            <LoadingState size={size} label={`size ${size}`} />
          </div>
        ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByRole('status')).toHaveLength(2);
  },
};
