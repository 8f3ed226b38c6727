import { createToast } from '@fleet/core';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { Button } from '../button';
import { ToastCard, ToastProvider, useToast, toastKinds } from './toast';

const meta = {
  title: 'Feedback/Toast',
  component: ToastCard,
  args: { toast: createToast({ kind: 'success', message: 'Vehicle saved' }) },
} satisfies Meta<typeof ToastCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The three kinds with the spec's icons and colours: check/positive, warning/orange, error/negative. */
export const Kinds: Story = {
  render: () => (
    <div className="flex max-w-sm flex-col gap-2">
      {toastKinds.map((kind) => (
        <ToastCard
          key={kind}
          toast={createToast({
            kind,
            message: {
              success: 'Vehicle saved',
              warning: 'Push notification permission denied',
              error: 'Error deleting vehicle',
            }[kind],
            caption: kind === 'error' ? 'Error 500: Internal Server Error' : undefined,
          })}
          onDismiss={() => undefined}
        />
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole('status')).toHaveLength(2);
    await expect(canvas.getByRole('alert')).toHaveTextContent('Error deleting vehicle');
  },
};

export const CaptionOnly: Story = {
  args: { toast: createToast({ kind: 'warning', caption: 'Automatically retrying' }) },
};

function Trigger({ timeout }: { timeout?: number }) {
  const { toast } = useToast();
  return (
    <div className="flex gap-2">
      <Button onClick={() => toast({ kind: 'success', message: 'Vehicle saved', timeout })}>Save</Button>
      <Button
        variant="danger"
        onClick={() =>
          toast({ kind: 'error', message: 'Error deleting driver', caption: 'Error 409: Conflict', timeout })
        }
      >
        Delete
      </Button>
    </div>
  );
}

/** Stacking: newest at the bottom; screen readers hear each one (role status / alert). */
export const Stacking: Story = {
  render: () => (
    <ToastProvider>
      <Trigger timeout={0} />
    </ToastProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Delete' }));
    const region = screen.getByRole('region', { name: /Notifications|الإشعارات/ });
    await expect(within(region).getAllByRole('status')).toHaveLength(1);
    await expect(within(region).getByRole('alert')).toHaveTextContent('Error deleting driver');
    const dismiss = within(region).getAllByRole('button');
    await userEvent.click(dismiss[0]!);
    await expect(within(region).queryAllByRole('status')).toHaveLength(0);
  },
};

/**
 * Timing: a 400 ms toast stays while hovered and leaves after. Uses real time, so it is left out of
 * the screenshot run (which pins the clock); the Kinds and Stacking stories cover the visuals.
 */
export const PauseOnHover: Story = {
  tags: ['skip-visual'],
  render: () => (
    <ToastProvider tickMs={50}>
      <Trigger timeout={400} />
    </ToastProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    const toast = await screen.findByRole('status');
    await userEvent.hover(toast);
    await new Promise((r) => setTimeout(r, 700));
    await expect(screen.getByRole('status')).toBeInTheDocument();
    await userEvent.unhover(toast);
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument(), { timeout: 2000 });
  },
};

export const InvalidInputIsRejected: Story = {
  render: () => {
    let error = '';
    try {
      createToast({ kind: 'success', message: '', timeout: -1 });
    } catch (e) {
      error = (e as Error).message;
    }
    return <p className="text-sm">{error}</p>;
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.textContent).not.toBe('');
  },
};
