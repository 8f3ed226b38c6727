import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Button } from '../button';
import { CalendarIcon, RefreshIcon, SearchIcon } from '../icons';
import { EmptyState, ErrorState, stateSizes } from './states';
import { storyMessages } from './story-kit';

const meta = {
  title: 'Feedback/States',
  component: EmptyState,
  decorators: [(Story) => <div className="rounded-lg border border-border bg-surface">{Story()}</div>],
} satisfies Meta<typeof EmptyState>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The spec's report message, from the kit strings. */
export const NoDataForRange: Story = {
  args: { icon: <CalendarIcon size={24} /> },
  play: async ({ canvasElement }) => {
    const kit = storyMessages(canvasElement);
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(kit.emptyMessage);
  },
};

const change = fn();
export const WithAction: Story = {
  args: {
    icon: <SearchIcon size={24} />,
    title: 'No vehicles match',
    description: 'Try another search or clear the filters.',
    action: (
      <Button variant="outline" onClick={change}>
        Clear filters
      </Button>
    ),
  },
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Clear filters' }));
    await expect(change).toHaveBeenCalled();
  },
};

export const Sizes: Story = {
  render: () => (
    <div className="grid gap-4 sm:grid-cols-3">
      {stateSizes.map((size) => (
        <EmptyState key={size} size={size} title={`size ${size}`} />
      ))}
    </div>
  ),
};

const retry = fn();
export const Failed: Story = {
  render: () => (
    <ErrorState
      description="Error 500: Internal Server Error"
      action={
        <Button variant="outline" startIcon={<RefreshIcon />} onClick={retry}>
          Retry
        </Button>
      }
    />
  ),
  play: async ({ canvasElement }) => {
    const kit = storyMessages(canvasElement);
    const alert = within(canvasElement).getByRole('alert');
    await expect(alert).toHaveTextContent(kit.errorTitle);
    await expect(alert).toHaveTextContent('Error 500: Internal Server Error');
    await expect(alert).toHaveAttribute('data-tone', 'danger');
  },
};

export const Arabic: Story = { globals: { mode: 'light-ar' } };
