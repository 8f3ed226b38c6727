import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { Button } from '../button';
import { modalLayerA11y } from '../lib/a11y';
import { storyText } from '../lib/story-text';
import { PlateCard } from '../plate-card';
import { DeleteConfirmDialog } from './delete-confirm-dialog';

const meta = {
  title: 'Overlays/DeleteConfirmDialog',
  component: DeleteConfirmDialog,
  args: {
    entity: 'vehicle',
    name: <PlateCard stateCode="DXB" category="A" number="12345" size="sm" />,
    trigger: <Button variant="danger">Delete vehicle</Button>,
    onConfirm: fn(),
  },
  parameters: modalLayerA11y,
} satisfies Meta<typeof DeleteConfirmDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Open: Story = {
  args: { defaultOpen: true },
  play: async () => {
    const t = storyText();
    await expect(
      await screen.findByRole('dialog', { name: t.f('deleteTitle', { entity: 'vehicle' }) }),
    ).toBeVisible();
  },
};

export const Confirm: Story = {
  play: async ({ canvasElement, args }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Delete vehicle' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: storyText().delete }));
    await expect(args.onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  },
};

export const Failure: Story = {
  args: { defaultOpen: true, onConfirm: fn(() => Promise.reject(new Error('409'))) },
  play: async () => {
    const dialog = await screen.findByRole('dialog');
    const t = storyText();
    await userEvent.click(within(dialog).getByRole('button', { name: t.delete }));
    await expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      t.f('deleteError', { entity: 'vehicle' }),
    );
    await expect(dialog).toBeVisible();
  },
};
