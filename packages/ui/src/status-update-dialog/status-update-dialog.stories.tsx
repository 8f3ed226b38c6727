import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { modalLayerA11y } from '../lib/a11y';
import { storyText } from '../lib/story-text';
import { StatusUpdateDialog } from './status-update-dialog';

const meta = {
  title: 'Overlays/StatusUpdateDialog',
  component: StatusUpdateDialog,
  args: { defaultOpen: true, onSubmit: fn() },
  parameters: modalLayerA11y,
} satisfies Meta<typeof StatusUpdateDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Driver: Story = {
  play: async () => {
    const dialog = await screen.findByRole('dialog');
    await expect(within(dialog).getAllByRole('radio')).toHaveLength(3);
  },
};

export const VehicleToMaintenance: Story = {
  args: { entityKind: 'vehicle', value: 'active' },
  play: async ({ args }) => {
    const t = storyText();
    const dialog = await screen.findByRole('dialog');
    await expect(within(dialog).getAllByRole('radio')).toHaveLength(4);
    await userEvent.click(within(dialog).getByRole('radio', { name: t.statusMaintenance }));
    await userEvent.click(within(dialog).getByRole('button', { name: t.save }));
    await expect(args.onSubmit).toHaveBeenCalledWith('maintenance');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  },
};

export const Expired: Story = { args: { value: 'expired' } };
