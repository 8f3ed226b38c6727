import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, within } from 'storybook/test';
import { modalLayerA11y } from '../lib/a11y';
import { storyText } from '../lib/story-text';
import { OtpDialog } from './otp-dialog';

const meta = {
  title: 'Overlays/OtpDialog',
  component: OtpDialog,
  args: {
    defaultOpen: true,
    destination: '+971 50 123 4567',
    onVerify: fn(),
    onResend: fn(),
    resendAfterSeconds: 45,
  },
  parameters: modalLayerA11y,
} satisfies Meta<typeof OtpDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {
  play: async () => {
    const dialog = await screen.findByRole('dialog');
    await expect(within(dialog).getAllByRole('textbox')).toHaveLength(6);
    const t = storyText();
    // The resend button is locked during the countdown.
    await expect(
      within(dialog).getByRole('button', { name: t.f('otpResendIn', { seconds: 45 }) }),
    ).toBeDisabled();
  },
};

export const TypeDigits: Story = {
  play: async ({ args }) => {
    const dialog = await screen.findByRole('dialog');
    const cells = within(dialog).getAllByRole('textbox');
    await userEvent.click(cells[0]!);
    await userEvent.keyboard('4821');
    await expect(cells[4]).toHaveFocus();
    await userEvent.keyboard('{Backspace}');
    await expect(cells[3]).toHaveFocus();
    await expect(cells[3]).toHaveValue('');
    await userEvent.keyboard('193');
    await expect(args.onVerify).toHaveBeenCalledWith('482193');
  },
};

export const PasteWholeCode: Story = {
  play: async ({ args }) => {
    const dialog = await screen.findByRole('dialog');
    const cells = within(dialog).getAllByRole('textbox');
    await userEvent.click(cells[0]!);
    await userEvent.paste('735-204');
    await expect(cells.map((c) => (c as HTMLInputElement).value).join('')).toBe('735204');
    await expect(args.onVerify).toHaveBeenCalledWith('735204');
  },
};

export const ErrorState: Story = {
  args: { error: true },
  play: async () => {
    const dialog = await screen.findByRole('dialog');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent(storyText().otpInvalid);
    await expect(within(dialog).getAllByRole('textbox')[0]).toHaveAttribute('aria-invalid', 'true');
  },
};

export const ResendAvailable: Story = {
  args: { resendAfterSeconds: 0 },
  play: async ({ args }) => {
    const dialog = await screen.findByRole('dialog');
    const t = storyText();
    await userEvent.click(within(dialog).getByRole('button', { name: t.otpResend }));
    await expect(args.onResend).toHaveBeenCalledTimes(1);
  },
};
