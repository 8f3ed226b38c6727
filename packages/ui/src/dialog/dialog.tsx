import * as RadixDialog from '@radix-ui/react-dialog';
import { cva } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { IconButton } from '../button';
import { CloseIcon } from '../icons';
import type { UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels, useUi } from '../provider';

export const dialogSizes = ['sm', 'md', 'lg'] as const;
export type DialogSize = (typeof dialogSizes)[number];

export const dialogRecipe = cva(
  [
    'fixed start-1/2 top-1/2 z-50 flex max-h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] -translate-y-1/2 flex-col',
    'ltr:-translate-x-1/2 rtl:translate-x-1/2 rounded-xl border border-border bg-surface-raised text-foreground shadow-xl outline-none',
  ],
  {
    variants: {
      size: { sm: 'max-w-sm', md: 'max-w-md', lg: 'max-w-2xl' } satisfies Record<DialogSize, string>,
    },
    defaultVariants: { size: 'md' },
  },
);

export interface DialogProps {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Element that opens the dialog (rendered with Radix's asChild). */
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  size?: DialogSize;
  /** Buttons row at the bottom (inline end aligned). */
  footer?: ReactNode;
  /** Hide the close (x) button, e.g. while a required step is pending. */
  hideClose?: boolean;
  /** Blocks Escape and outside clicks (busy states). */
  dismissable?: boolean;
  children?: ReactNode;
  className?: string;
  labels?: Partial<Pick<UiMessages, 'close'>>;
}

/**
 * The base dialog on Radix Dialog: modal, focus trapped, Escape and overlay click close it,
 * focus returns to the trigger. The panel is rendered inside the provider's lang/dir/theme.
 */
export function Dialog({
  open,
  defaultOpen,
  onOpenChange,
  trigger,
  title,
  description,
  size = 'md',
  footer,
  hideClose,
  dismissable = true,
  children,
  className,
  labels,
}: DialogProps) {
  const text = useLabels(['close'], labels);
  const { dir, locale, theme } = useUi();
  const block = (e: Event) => {
    if (!dismissable) e.preventDefault();
  };
  return (
    <RadixDialog.Root open={open} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <div dir={dir} lang={locale} data-theme={theme} className="contents font-sans">
          <RadixDialog.Overlay data-slot="dialog-overlay" className="fixed inset-0 z-50 bg-overlay" />
          <RadixDialog.Content
            data-slot="dialog"
            data-size={size}
            onEscapeKeyDown={block}
            onPointerDownOutside={block}
            onInteractOutside={block}
            className={cn(dialogRecipe({ size }), className)}
            {...(description ? {} : { 'aria-describedby': undefined })}
          >
            <div className="flex items-start justify-between gap-4 px-5 pt-5">
              <div className="flex flex-col gap-1">
                <RadixDialog.Title data-slot="dialog-title" className="text-lg font-semibold">
                  {title}
                </RadixDialog.Title>
                {description ? (
                  <RadixDialog.Description
                    data-slot="dialog-description"
                    className="text-sm text-foreground-muted"
                  >
                    {description}
                  </RadixDialog.Description>
                ) : null}
              </div>
              {hideClose ? null : (
                <RadixDialog.Close asChild>
                  <IconButton label={text.close} icon={<CloseIcon />} size="sm" className="-me-2 -mt-1" />
                </RadixDialog.Close>
              )}
            </div>
            <div data-slot="dialog-body" className="overflow-y-auto px-5 py-4">
              {children}
            </div>
            {footer ? (
              <div
                data-slot="dialog-footer"
                className="flex flex-wrap justify-end gap-2 border-t border-border px-5 py-3"
              >
                {footer}
              </div>
            ) : null}
          </RadixDialog.Content>
        </div>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Closes the enclosing Dialog (wrap a footer button). */
export const DialogClose = RadixDialog.Close;
