import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { Button } from '../button';
import { modalLayerA11y } from '../lib/a11y';
import { Dialog, DialogClose, dialogSizes } from './dialog';

const meta = {
  title: 'Overlays/Dialog',
  component: Dialog,
  args: {
    title: 'Share location',
    description: 'Copy the link or send it by e-mail.',
    trigger: <Button>Open dialog</Button>,
    children: <p className="text-sm">The link is valid for 24 hours.</p>,
    footer: (
      <DialogClose asChild>
        <Button variant="outline">Done</Button>
      </DialogClose>
    ),
  },
  argTypes: { size: { control: 'inline-radio', options: dialogSizes } },
  parameters: modalLayerA11y,
} satisfies Meta<typeof Dialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Closed: Story = {};

/** Opens, traps focus inside, closes on Escape and returns focus to the trigger. */
export const FocusTrapAndEscape: Story = {
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Open dialog' });
    await userEvent.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Share location' });
    await expect(dialog).toHaveAccessibleDescription('Copy the link or send it by e-mail.');
    // Tab cycles within the dialog.
    for (let i = 0; i < 4; i++) {
      await userEvent.tab();
      await expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await expect(trigger).toHaveFocus();
  },
};

export const Open: Story = {
  args: { defaultOpen: true },
  play: async () => {
    await expect(await screen.findByRole('dialog')).toBeVisible();
  },
};

export const Large: Story = { args: { defaultOpen: true, size: 'lg' } };
