import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../button';
import { focusRing } from '../button';
import { Dialog } from '../dialog';
import { format, type UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';
import { fillCells, secondsLeft } from './otp-logic';

type Labels = Partial<
  Pick<
    UiMessages,
    | 'otpTitle'
    | 'otpDescription'
    | 'otpDigit'
    | 'otpResend'
    | 'otpResendIn'
    | 'otpVerify'
    | 'otpInvalid'
    | 'close'
  >
>;

export interface OtpDialogProps {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  /** Number of digits (default 6). */
  length?: number;
  /** Where the code was sent, shown in the description (kept LTR). */
  destination: string;
  /** Called with the full code on submit (or when the last digit is filled). */
  onVerify: (code: string) => void;
  /** Asks for a new code; the countdown restarts. */
  onResend: () => void;
  /** Seconds before "Resend" is enabled (default 60). Derived from Date.now(). */
  resendAfterSeconds?: number;
  /**
   * Error state: true shows the kit message, a string shows that text. Closing and reopening the
   * dialog clears the digits and hides the error until the next attempt or a new error value.
   */
  error?: boolean | string;
  verifying?: boolean;
  labels?: Labels;
}

/**
 * One-time-code dialog: one input per digit, typing moves forward, Backspace moves back, pasting a
 * whole code fills every cell, the code auto-submits when complete, resend unlocks after a
 * countdown, and an error state marks the cells invalid and announces the message.
 */
export function OtpDialog({
  open,
  defaultOpen,
  onOpenChange,
  trigger,
  length = 6,
  destination,
  onVerify,
  onResend,
  resendAfterSeconds = 60,
  error,
  verifying,
  labels,
}: OtpDialogProps) {
  const text = useLabels(
    [
      'otpTitle',
      'otpDescription',
      'otpDigit',
      'otpResend',
      'otpResendIn',
      'otpVerify',
      'otpInvalid',
      'close',
    ],
    labels,
  );
  const [cells, setCells] = useState<string[]>(() => Array.from({ length }, () => ''));
  const [deadline, setDeadline] = useState(() => Date.now() + resendAfterSeconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const remaining = secondsLeft(deadline, now);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [remaining]);

  // Open state, controlled or not, so a reopened dialog can start afresh.
  const [internalOpen, setInternalOpen] = useState(defaultOpen ?? false);
  const isOpen = open ?? internalOpen;
  const setOpen = (next: boolean) => {
    setInternalOpen(next);
    onOpenChange?.(next);
  };
  // An error is shown until the dialog is closed: reopened, it starts with empty cells and no
  // error, even if the caller still passes the old `error`; a new `error` value, or the caller's
  // `error` after a new attempt, shows again. State adjusted during render, not in an effect.
  const [errorHidden, setErrorHidden] = useState(false);
  const [seenOpen, setSeenOpen] = useState(isOpen);
  if (isOpen !== seenOpen) {
    setSeenOpen(isOpen);
    if (isOpen) {
      setCells(Array.from({ length }, () => ''));
      setErrorHidden(true);
    }
  }

  // A new error clears the cells.
  const [seenError, setSeenError] = useState(error);
  if (error !== seenError) {
    setSeenError(error);
    setErrorHidden(false);
    if (error) setCells(Array.from({ length }, () => ''));
  }

  const code = cells.join('');
  const complete = code.length === length;
  const errorText = errorHidden ? null : typeof error === 'string' ? error : error ? text.otpInvalid : null;

  function verify(full: string) {
    setErrorHidden(false);
    onVerify(full);
  }

  function write(index: number, value: string) {
    const { cells: next, focus } = fillCells(cells, index, value);
    setCells(next);
    refs.current[focus]?.focus();
    const full = next.join('');
    if (full.length === length && next.every((c) => c !== '')) verify(full);
  }

  function onKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Backspace' && !cells[index] && index > 0) {
      event.preventDefault();
      const next = [...cells];
      next[index - 1] = '';
      setCells(next);
      refs.current[index - 1]?.focus();
    }
  }

  function onPaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    write(index, event.clipboardData.getData('text'));
  }

  return (
    <Dialog
      open={isOpen}
      onOpenChange={setOpen}
      trigger={trigger}
      size="sm"
      title={text.otpTitle}
      description={
        <>{format(text.otpDescription, { length, destination: '\u2068' + destination + '\u2069' })}</>
      }
      labels={{ close: text.close }}
    >
      <form
        data-slot="otp"
        onSubmit={(e) => {
          e.preventDefault();
          if (complete) verify(code);
        }}
        className="flex flex-col gap-4"
      >
        <div dir="ltr" className="flex justify-center gap-2" role="group" aria-label={text.otpTitle}>
          {cells.map((cell, i) => (
            <input
              key={i}
              ref={(el) => {
                refs.current[i] = el;
              }}
              data-slot="otp-cell"
              value={cell}
              inputMode="numeric"
              autoComplete={i === 0 ? 'one-time-code' : 'off'}
              maxLength={length}
              aria-label={format(text.otpDigit, { index: i + 1, length })}
              aria-invalid={errorText ? true : undefined}
              aria-describedby={errorText ? 'otp-error' : undefined}
              onChange={(e) => write(i, e.target.value.slice(cell ? 1 : 0) || e.target.value)}
              onKeyDown={(e) => onKeyDown(i, e)}
              onPaste={(e) => onPaste(i, e)}
              onFocus={(e) => e.target.select()}
              className={cn(
                'size-11 rounded-md border border-border-strong bg-surface text-center text-lg font-semibold text-foreground tabular-nums',
                'aria-invalid:border-danger',
                focusRing,
                'focus-visible:outline-offset-0',
              )}
            />
          ))}
        </div>
        {errorText ? (
          <p id="otp-error" role="alert" className="text-center text-sm font-medium text-danger">
            {errorText}
          </p>
        ) : null}
        <div className="flex items-center justify-between gap-2">
          <Button
            variant="ghost"
            size="sm"
            disabled={remaining > 0}
            onClick={() => {
              onResend();
              const t = Date.now();
              setNow(t);
              setDeadline(t + resendAfterSeconds * 1000);
              setCells(Array.from({ length }, () => ''));
              refs.current[0]?.focus();
            }}
          >
            {remaining > 0 ? format(text.otpResendIn, { seconds: remaining }) : text.otpResend}
          </Button>
          <Button type="submit" disabled={!complete} loading={verifying}>
            {text.otpVerify}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
