import { useState, type ReactNode } from 'react';
import { Button } from '../button';
import { DialogClose, Dialog } from '../dialog';
import { FormField } from '../form-field';
import type { UiMessages } from '../i18n';
import { Input } from '../input';
import { useLabels } from '../provider';

type Labels = Partial<
  Pick<
    UiMessages,
    | 'passwordVerifyTitle'
    | 'passwordVerifyDescription'
    | 'passwordLabel'
    | 'passwordVerify'
    | 'cancel'
    | 'close'
    | 'showPassword'
    | 'hidePassword'
  >
>;

export interface PasswordVerificationDialogProps {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  /** Called with the entered password. */
  onVerify: (password: string) => void;
  /** Error text from the caller (e.g. the API message); shown under the field. */
  error?: string;
  verifying?: boolean;
  labels?: Labels;
}

/** Asks for the user's password before a sensitive action (e.g. sending a device command). */
export function PasswordVerificationDialog({
  open,
  defaultOpen,
  onOpenChange,
  trigger,
  onVerify,
  error,
  verifying,
  labels,
}: PasswordVerificationDialogProps) {
  const text = useLabels(
    [
      'passwordVerifyTitle',
      'passwordVerifyDescription',
      'passwordLabel',
      'passwordVerify',
      'cancel',
      'close',
      'showPassword',
      'hidePassword',
    ],
    labels,
  );
  const [password, setPassword] = useState('');
  const formId = 'password-verification-form';
  return (
    <Dialog
      open={open}
      defaultOpen={defaultOpen}
      onOpenChange={(next) => {
        if (!next) setPassword('');
        onOpenChange?.(next);
      }}
      trigger={trigger}
      size="sm"
      title={text.passwordVerifyTitle}
      description={text.passwordVerifyDescription}
      dismissable={!verifying}
      labels={{ close: text.close }}
      footer={
        <>
          <DialogClose asChild>
            <Button variant="outline" disabled={verifying}>
              {text.cancel}
            </Button>
          </DialogClose>
          <Button type="submit" form={formId} disabled={!password} loading={verifying}>
            {text.passwordVerify}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        onSubmit={(e) => {
          e.preventDefault();
          if (password) onVerify(password);
        }}
      >
        <FormField label={text.passwordLabel} error={error} required>
          <Input
            kind="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            labels={{ showPassword: text.showPassword, hidePassword: text.hidePassword }}
          />
        </FormField>
      </form>
    </Dialog>
  );
}
