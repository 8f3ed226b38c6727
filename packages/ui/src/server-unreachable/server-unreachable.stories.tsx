import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { format } from '../i18n';
import { storyMessages } from '../states/story-kit';
import type { CountdownTimers } from './countdown';
import { ServerUnreachable } from './server-unreachable';

/** Timers that never fire on their own: the story (or its play) ticks them. */
function manualTimers() {
  const live = new Map<number, () => void>();
  let next = 1;
  const timers: CountdownTimers = {
    setInterval: (cb) => {
      live.set(next, cb);
      return next++;
    },
    clearInterval: (h) => {
      live.delete(h as number);
    },
  };
  return {
    timers,
    tick: () => [...live.values()].forEach((cb) => cb()),
    /** Whether a countdown has started its interval (its effect ran) and can be ticked. */
    running: () => live.size > 0,
  };
}

const frozen = manualTimers();

const meta = {
  title: 'Pages/ServerUnreachable',
  component: ServerUnreachable,
  args: { seconds: 10, onRetry: fn(), timers: frozen.timers },
  argTypes: { timers: { control: false } },
} satisfies Meta<typeof ServerUnreachable>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Frozen at 10 s (timers injected) so screenshots are stable. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const kit = storyMessages(canvasElement);
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading')).toHaveTextContent(kit.serverUnreachable);
    const live = canvasElement.querySelector('[data-slot="server-unreachable-countdown"]');
    await expect(live).toHaveAttribute('aria-live', 'polite');
    await expect(live).toHaveTextContent(format(kit.serverRetrying, { countdown: 10 }));
  },
};

const driven = manualTimers();
export const CountsDownAndRetries: Story = {
  args: { seconds: 3, timers: driven.timers },
  render: function Render(args) {
    const [attempt, setAttempt] = useState(0);
    return (
      <ServerUnreachable
        {...args}
        attempt={attempt}
        onRetry={() => {
          args.onRetry();
          setAttempt((a) => a + 1);
        }}
      />
    );
  },
  play: async ({ canvasElement, args }) => {
    const kit = storyMessages(canvasElement);
    const live = canvasElement.querySelector('[data-slot="server-unreachable-countdown"]')!;
    await expect(live).toHaveTextContent(format(kit.serverRetrying, { countdown: 3 }));
    // The countdown starts in an effect, which may run after the play function has begun (it did
    // when the story was remounted in the screenshot run): a tick before that reaches no interval.
    await waitFor(() => expect(driven.running()).toBe(true));
    driven.tick();
    await waitFor(() => expect(live).toHaveTextContent(format(kit.serverRetrying, { countdown: 2 })));
    driven.tick();
    driven.tick();
    await waitFor(() => expect(args.onRetry).toHaveBeenCalledTimes(1));
    // A new attempt restarts the countdown.
    await waitFor(() => expect(live).toHaveTextContent(format(kit.serverRetrying, { countdown: 3 })));
    await userEvent.click(within(canvasElement).getByRole('button', { name: kit.retry }));
    await expect(args.onRetry).toHaveBeenCalledTimes(2);
  },
};

export const Retrying: Story = { args: { retrying: true } };

export const Arabic: Story = { globals: { mode: 'light-ar' } };
