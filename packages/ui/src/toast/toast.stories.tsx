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
 * A manual clock for the timing stories: lifetimes and pauses are checked by moving this clock, not
 * by waiting in real time, so the stories are deterministic (and screenshot-stable). `reads` counts
 * the provider's clock reads; while a timed toast runs, every expiry tick reads it once.
 */
const clock = {
  t: 0,
  reads: 0,
  now: () => {
    clock.reads++;
    return clock.t;
  },
};
/** Resolves after the provider has run `n` more expiry ticks (it reads the clock on each). */
async function ticks(n = 3) {
  const start = clock.reads;
  await waitFor(() => expect(clock.reads).toBeGreaterThanOrEqual(start + n));
}

function TimedTriggers() {
  const { toast } = useToast();
  return (
    <div className="flex gap-2">
      <Button onClick={() => toast({ kind: 'success', message: 'Vehicle saved', timeout: 400 })}>Save</Button>
      <Button
        variant="danger"
        onClick={() =>
          toast({
            kind: 'error',
            message: 'Error deleting driver',
            caption: 'Error 409: Conflict',
            timeout: 60_000,
          })
        }
      >
        Delete
      </Button>
    </div>
  );
}

function timedRender() {
  return (
    <ToastProvider tickMs={20} now={clock.now}>
      <TimedTriggers />
    </ToastProvider>
  );
}

/**
 * A 400 ms toast stays while hovered, however long, and then gets the rest of its lifetime. The
 * 60 s error toast keeps the expiry ticks running meanwhile.
 */
export const PauseOnHover: Story = {
  beforeEach: () => {
    clock.t = 0;
  },
  render: timedRender,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Delete' }));
    const saved = await screen.findByRole('status');
    clock.t = 100;
    await userEvent.hover(saved);
    await waitFor(() => expect(saved).toHaveAttribute('data-paused', 'true'));
    clock.t = 10_000;
    await ticks();
    await expect(saved).toBeInTheDocument();
    await userEvent.unhover(saved);
    await waitFor(() => expect(saved).not.toHaveAttribute('data-paused'));
    // 300 ms of its lifetime were left when the pointer came in.
    clock.t = 10_250;
    await ticks();
    await expect(saved).toBeInTheDocument();
    clock.t = 10_300;
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    await expect(screen.getByRole('alert')).toHaveTextContent('Error deleting driver');
  },
};

/**
 * Keyboard users: focus inside the toast (its dismiss button) pauses it too, and the pointer leaving
 * does not resume it while focus stays; it resumes when focus leaves.
 */
export const PauseOnFocus: Story = {
  beforeEach: () => {
    clock.t = 0;
  },
  render: timedRender,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Delete' }));
    const saved = await screen.findByRole('status');
    clock.t = 100;
    within(saved).getByRole('button').focus();
    await waitFor(() => expect(saved).toHaveAttribute('data-paused', 'true'));
    await userEvent.hover(saved);
    await userEvent.unhover(saved);
    clock.t = 10_000;
    await ticks();
    await expect(saved).toBeInTheDocument();
    await expect(saved).toHaveAttribute('data-paused', 'true');
    canvas.getByRole('button', { name: 'Save' }).focus();
    await waitFor(() => expect(saved).not.toHaveAttribute('data-paused'));
    clock.t = 10_250;
    await ticks();
    await expect(saved).toBeInTheDocument();
    clock.t = 10_300;
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    await expect(screen.getByRole('alert')).toBeInTheDocument();
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

/**
 * The phone placement (what `placement="auto"` does under 768 px): the stack at the top edge, so it
 * never covers the pager or the save button at the bottom of the screen.
 */
export const PhonePlacement: Story = {
  render: () => (
    <ToastProvider placement="top">
      <div className="flex min-h-[22rem] flex-col justify-end">
        <Trigger timeout={0} />
      </div>
    </ToastProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const save = canvas.getAllByRole('button')[0]!;
    await userEvent.click(save);
    const toast = await screen.findByRole('status');
    const viewport = toast.closest<HTMLElement>('[data-slot="toast-viewport"]')!;
    await expect(viewport).toHaveAttribute('data-placement', 'top');
    await expect(toast.getBoundingClientRect().bottom).toBeLessThan(save.getBoundingClientRect().top);
  },
};
