import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { InlineAlert, inlineAlertTones } from './inline-alert';

const meta = {
  title: 'Feedback/InlineAlert',
  component: InlineAlert,
  args: { children: 'These credentials do not match our records.' },
} satisfies Meta<typeof InlineAlert>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A failed form submission: announced at once. */
export const Danger: Story = {
  play: async ({ canvasElement }) => {
    const alert = within(canvasElement).getByRole('alert');
    await expect(alert).toHaveAttribute('data-tone', 'danger');
    await expect(alert).toHaveTextContent('These credentials do not match our records.');
  },
};

export const WithTitle: Story = {
  args: { tone: 'warning', title: 'Device offline', children: 'Commands are queued until it reconnects.' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent('Device offline');
  },
};

/** Every tone; info and success are polite status messages. */
export const Tones: Story = {
  render: () => (
    <div className="flex flex-col gap-3">
      {inlineAlertTones.map((tone) => (
        <InlineAlert key={tone} tone={tone} title={tone}>
          Message in the {tone} tone.
        </InlineAlert>
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole('alert')).toHaveLength(2);
    await expect(canvas.getAllByRole('status')).toHaveLength(2);
  },
};
