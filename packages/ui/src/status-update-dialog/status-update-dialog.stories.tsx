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

/**
 * The server refuses the change: its message is shown in the dialog, which stays open with the
 * choice kept, so the user can pick another status or cancel.
 */
export const ServerRefusal: Story = {
  args: {
    entityKind: 'vehicle',
    value: 'active',
    onSubmit: fn(() => Promise.reject(new Error('The vehicle has an open trip and cannot be deactivated.'))),
  },
  play: async ({ args }) => {
    const t = storyText();
    const dialog = await screen.findByRole('dialog');
    await expect(within(dialog).queryByRole('alert')).toBeNull();
    await userEvent.click(within(dialog).getByRole('radio', { name: t.statusInactive }));
    await userEvent.click(within(dialog).getByRole('button', { name: t.save }));
    await expect(args.onSubmit).toHaveBeenCalledWith('inactive');
    const alert = await within(dialog).findByRole('alert');
    await expect(alert).toHaveTextContent('The vehicle has an open trip and cannot be deactivated.');
    await expect(screen.getByRole('dialog')).toBeInTheDocument();
    await expect(within(dialog).getByRole('radio', { name: t.statusInactive })).toBeChecked();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: t.save })).toBeEnabled());
  },
};

/** A refusal without a message falls back to the kit's text; a successful retry closes the dialog. */
const attempts = { count: 0 };
export const RefusalThenRetry: Story = {
  beforeEach: () => {
    attempts.count = 0;
  },
  args: {
    // The first attempt is refused without a message, the next one succeeds.
    onSubmit: fn(() => (++attempts.count === 1 ? Promise.reject(new Error('')) : Promise.resolve())),
  },
  play: async ({ args }) => {
    const t = storyText();
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('radio', { name: t.statusExpired }));
    await userEvent.click(within(dialog).getByRole('button', { name: t.save }));
    await expect(await within(dialog).findByRole('alert')).toHaveTextContent(t.statusUpdateFailed);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: t.save })).toBeEnabled());
    await userEvent.click(within(dialog).getByRole('button', { name: t.save }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(2);
    await expect(args.onSubmit).toHaveBeenLastCalledWith('expired');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  },
};
