import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, within } from 'storybook/test';
import { modalLayerA11y } from '../lib/a11y';
import { storyText } from '../lib/story-text';
import { PasswordVerificationDialog } from './password-verification-dialog';

const meta = {
  title: 'Overlays/PasswordVerificationDialog',
  component: PasswordVerificationDialog,
  args: { defaultOpen: true, onVerify: fn() },
  parameters: modalLayerA11y,
} satisfies Meta<typeof PasswordVerificationDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {
  play: async () => {
    const dialog = await screen.findByRole('dialog');
    await expect(within(dialog).getByRole('button', { name: storyText().passwordVerify })).toBeDisabled();
  },
};

export const Submit: Story = {
  play: async ({ args }) => {
    const t = storyText();
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(t.passwordLabel), 'correct horse{Enter}');
    await expect(args.onVerify).toHaveBeenCalledWith('correct horse');
  },
};

export const WrongPassword: Story = {
  args: { error: 'The password is incorrect' },
  play: async () => {
    const t = storyText();
    const dialog = await screen.findByRole('dialog');
    await expect(within(dialog).getByLabelText(t.passwordLabel)).toHaveAttribute('aria-invalid', 'true');
  },
};
