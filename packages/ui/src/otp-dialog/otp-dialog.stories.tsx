import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { Button } from '../button';
import { modalLayerA11y } from '../lib/a11y';
import { storyText } from '../lib/story-text';
import { OtpDialog, type OtpDialogProps } from './otp-dialog';

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

/** A caller that rejects every code and never clears its `error` (the dialog must still start afresh). */
function RejectingOtp(args: OtpDialogProps) {
  const [error, setError] = useState(false);
  return (
    <OtpDialog
      {...args}
      defaultOpen={false}
      trigger={<Button>Verify phone</Button>}
      error={error}
      onVerify={(code) => {
        args.onVerify(code);
        setError(true);
      }}
    />
  );
}

/**
 * Reopening starts afresh: a wrong code shows the error, a half-typed retry is abandoned with
 * Escape, and the reopened dialog has empty cells and no error. The next wrong code shows it again.
 */
export const ReopenResets: Story = {
  render: (args) => <RejectingOtp {...args} />,
  play: async ({ canvasElement, args }) => {
    const t = storyText();
    const trigger = within(canvasElement).getByRole('button', { name: 'Verify phone' });
    await userEvent.click(trigger);
    let dialog = await screen.findByRole('dialog');
    let cells = within(dialog).getAllByRole('textbox');
    await userEvent.click(cells[0]!);
    await userEvent.keyboard('111111');
    await expect(args.onVerify).toHaveBeenCalledWith('111111');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent(t.otpInvalid);
    await userEvent.click(cells[0]!);
    await userEvent.keyboard('42');
    await expect(cells[1]).toHaveValue('2');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(trigger);
    dialog = await screen.findByRole('dialog');
    cells = within(dialog).getAllByRole('textbox');
    await expect(cells.map((c) => (c as HTMLInputElement).value).join('')).toBe('');
    await expect(within(dialog).queryByRole('alert')).toBeNull();
    await expect(cells[0]).not.toHaveAttribute('aria-invalid');

    await userEvent.click(cells[0]!);
    await userEvent.keyboard('222222');
    await expect(args.onVerify).toHaveBeenLastCalledWith('222222');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent(t.otpInvalid);
  },
};
