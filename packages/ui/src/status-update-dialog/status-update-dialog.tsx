import { useState, type ReactNode } from 'react';
import { Button } from '../button';
import { Dialog, DialogClose } from '../dialog';
import type { UiMessages } from '../i18n';
import { RadioGroup } from '../radio-group';
import { useLabels } from '../provider';

/** Entity statuses of the spec; vehicles may also be put in maintenance. */
export const entityStatuses = ['active', 'inactive', 'expired'] as const;
export const vehicleStatusUpdates = [...entityStatuses, 'maintenance'] as const;
export type EntityStatusUpdate = (typeof vehicleStatusUpdates)[number];

/** The statuses offered for an entity kind. */
export function statusOptionsFor(entityKind: 'vehicle' | 'other'): readonly EntityStatusUpdate[] {
  return entityKind === 'vehicle' ? vehicleStatusUpdates : entityStatuses;
}

type Labels = Partial<
  Pick<
    UiMessages,
    | 'statusUpdateTitle'
    | 'statusUpdateDescription'
    | 'statusActive'
    | 'statusInactive'
    | 'statusExpired'
    | 'statusMaintenance'
    | 'statusUpdateFailed'
    | 'save'
    | 'cancel'
    | 'close'
  >
>;

export interface StatusUpdateDialogProps {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  /** 'vehicle' adds the maintenance option. */
  entityKind?: 'vehicle' | 'other';
  /** Current status, preselected. */
  value?: EntityStatusUpdate;
  /**
   * Called with the chosen status; the dialog closes when it resolves. When it rejects (the server
   * refused the change) the dialog stays open and shows the error's message (the API client puts
   * the server's message there), or 'Could not update the status.' when it has none.
   */
  onSubmit: (status: EntityStatusUpdate) => Promise<void> | void;
  labels?: Labels;
}

export function StatusUpdateDialog({
  open,
  defaultOpen,
  onOpenChange,
  trigger,
  entityKind = 'other',
  value = 'active',
  onSubmit,
  labels,
}: StatusUpdateDialogProps) {
  const text = useLabels(
    [
      'statusUpdateTitle',
      'statusUpdateDescription',
      'statusActive',
      'statusInactive',
      'statusExpired',
      'statusMaintenance',
      'statusUpdateFailed',
      'save',
      'cancel',
      'close',
    ],
    labels,
  );
  const [internalOpen, setInternalOpen] = useState(defaultOpen ?? false);
  const [choice, setChoice] = useState<EntityStatusUpdate>(value);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isOpen = open ?? internalOpen;
  const setOpen = (next: boolean) => {
    if (next) setChoice(value);
    setError(null);
    setInternalOpen(next);
    onOpenChange?.(next);
  };
  const label: Record<EntityStatusUpdate, string> = {
    active: text.statusActive,
    inactive: text.statusInactive,
    expired: text.statusExpired,
    maintenance: text.statusMaintenance,
  };
  async function submit() {
    setBusy(true);
    setError(null);
    try {
      await onSubmit(choice);
      setOpen(false);
    } catch (e) {
      setError(e instanceof Error && e.message.trim() ? e.message : text.statusUpdateFailed);
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
      title={text.statusUpdateTitle}
      description={text.statusUpdateDescription}
      dismissable={!busy}
      labels={{ close: text.close }}
      footer={
        <>
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              {text.cancel}
            </Button>
          </DialogClose>
          <Button loading={busy} onClick={submit}>
            {text.save}
          </Button>
        </>
      }
    >
      <RadioGroup
        label={text.statusUpdateTitle}
        value={choice}
        onValueChange={(v) => setChoice(v as EntityStatusUpdate)}
        options={statusOptionsFor(entityKind).map((s) => ({ value: s, label: label[s] }))}
      />
      {error ? (
        <p
          role="alert"
          data-slot="status-update-error"
          className="mt-3 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger"
        >
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
