import { useState, type ReactNode } from 'react';
import { Button } from '../button';
import { Dialog, DialogClose } from '../dialog';
import { format, type UiMessages } from '../i18n';
import { useLabels } from '../provider';

type Labels = Partial<
  Pick<UiMessages, 'deleteTitle' | 'deleteMessage' | 'deleteError' | 'delete' | 'cancel' | 'close'>
>;

export interface DeleteConfirmDialogProps {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  /** Entity word used in the texts, e.g. 'vehicle' ('Error deleting vehicle'). */
  entity: string;
  /** Name of the record shown in bold, e.g. the plate or the driver's name. */
  name?: ReactNode;
  /** Performs the deletion; a rejection shows 'Error deleting {entity}' and keeps the dialog open. */
  onConfirm: () => Promise<void> | void;
  labels?: Labels;
}

export function DeleteConfirmDialog({
  open,
  defaultOpen,
  onOpenChange,
  trigger,
  entity,
  name,
  onConfirm,
  labels,
}: DeleteConfirmDialogProps) {
  const text = useLabels(
    ['deleteTitle', 'deleteMessage', 'deleteError', 'delete', 'cancel', 'close'],
    labels,
  );
  const [internalOpen, setInternalOpen] = useState(defaultOpen ?? false);
  const isOpen = open ?? internalOpen;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const setOpen = (next: boolean) => {
    if (!next) setError(null);
    setInternalOpen(next);
    onOpenChange?.(next);
  };
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      setError(format(text.deleteError, { entity }));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={isOpen}
      onOpenChange={setOpen}
      trigger={trigger}
      size="sm"
      title={format(text.deleteTitle, { entity })}
      description={format(text.deleteMessage, { entity })}
      dismissable={!busy}
      labels={{ close: text.close }}
      footer={
        <>
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              {text.cancel}
            </Button>
          </DialogClose>
          <Button variant="danger" loading={busy} onClick={confirm}>
            {text.delete}
          </Button>
        </>
      }
    >
      {name ? <p className="text-sm font-semibold">{name}</p> : null}
      {error ? (
        <p
          role="alert"
          data-slot="delete-error"
          className="mt-2 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger"
        >
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
