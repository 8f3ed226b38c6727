import { createToast, toastKinds, type Toast, type ToastInput, type ToastKind } from '@fleet/core';
import { cva } from 'class-variance-authority';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type ReactNode,
} from 'react';
import { focusRing } from '../button';
import { CheckCircleIcon, CloseIcon, ErrorIcon, WarningIcon } from '../icons';
import type { UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels, useUi } from '../provider';

export { toastKinds };
export type { ToastKind, ToastInput };

/** success -> positive (success tokens), warning -> orange (warning tokens), error -> negative (danger tokens). */
export const toastRecipe = cva(
  'pointer-events-auto flex w-full items-start gap-3 rounded-lg border bg-surface-raised p-3 pe-2 text-foreground shadow-lg',
  {
    variants: {
      kind: {
        success: 'border-success',
        warning: 'border-warning',
        error: 'border-danger',
      } satisfies Record<ToastKind, string>,
    },
  },
);
const iconTone: Record<ToastKind, string> = {
  success: 'bg-success-soft text-success',
  warning: 'bg-warning-soft text-warning',
  error: 'bg-danger-soft text-danger',
};
const icons = { check: CheckCircleIcon, warning: WarningIcon, error: ErrorIcon } as const;

type ToastLabels = Partial<
  Pick<UiMessages, 'toastRegion' | 'toastSuccess' | 'toastWarning' | 'toastError' | 'toastDismiss'>
>;

export interface ToastCardProps {
  toast: Toast;
  onDismiss?: () => void;
  /**
   * Paused while the pointer is over the toast or focus is inside it (keyboard users reading it or
   * reaching its dismiss button); called when that changes.
   */
  onPauseChange?: (paused: boolean) => void;
  labels?: ToastLabels;
  className?: string;
}

/** One toast: icon, message, optional caption, dismiss button. Errors are announced assertively. */
export function ToastCard({ toast, onDismiss, onPauseChange, labels, className }: ToastCardProps) {
  const text = useLabels(['toastSuccess', 'toastWarning', 'toastError', 'toastDismiss'], labels);
  const Icon = icons[toast.icon];
  const kindLabel = { success: text.toastSuccess, warning: text.toastWarning, error: text.toastError }[
    toast.kind
  ];
  // Hover and focus are tracked apart: leaving with the mouse must not resume a toast that still
  // holds the keyboard focus, and the other way round.
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const paused = hovered || focused;
  const pauseChange = useRef(onPauseChange);
  useLayoutEffect(() => {
    pauseChange.current = onPauseChange;
  });
  const reported = useRef(false);
  useEffect(() => {
    if (paused === reported.current) return;
    reported.current = paused;
    pauseChange.current?.(paused);
  }, [paused]);
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    // Focus moving between elements of the same toast keeps it paused.
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
  };
  return (
    <div
      role={toast.kind === 'error' ? 'alert' : 'status'}
      aria-live={toast.kind === 'error' ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-slot="toast"
      data-variant={toast.kind}
      data-tone={toast.tone}
      data-paused={paused || undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={onBlur}
      className={cn(toastRecipe({ kind: toast.kind }), className)}
    >
      <span
        className={cn('flex size-8 shrink-0 items-center justify-center rounded-full', iconTone[toast.kind])}
      >
        <Icon size={18} title={kindLabel} />
      </span>
      <div className="min-w-0 flex-1 py-0.5">
        {toast.message ? (
          <p data-slot="toast-message" className="text-sm font-medium">
            {toast.message}
          </p>
        ) : null}
        {toast.caption ? (
          <p data-slot="toast-caption" className="text-xs text-foreground-muted">
            {toast.caption}
          </p>
        ) : null}
      </div>
      {onDismiss ? (
        <button
          type="button"
          aria-label={text.toastDismiss}
          title={text.toastDismiss}
          onClick={onDismiss}
          className={cn('rounded-sm p-1 text-foreground-muted hover:text-foreground', focusRing)}
        >
          <CloseIcon />
        </button>
      ) : null}
    </div>
  );
}

interface ActiveToast extends Toast {
  id: number;
  /** Remaining lifetime in ms while paused; timing is derived from the provider's clock. */
  remaining: number;
  /** Clock time when the current running period started; null while paused. */
  runningSince: number | null;
}

export interface ToastApi {
  /** Shows a toast; throws a TypeError for invalid input (no message and no caption, negative timeout). */
  toast: (input: ToastInput) => number;
  dismiss: (id: number) => void;
  clear: () => void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** Imperative access to the toaster of the nearest ToastProvider. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}

export interface ToastProviderProps {
  children?: ReactNode;
  /** Toasts shown at once; older ones beyond this are dropped. Default 5. */
  max?: number;
  /** Poll interval for expiry; lifetimes are computed from `now`. Default 200 ms. */
  tickMs?: number;
  /**
   * Clock in ms (default `Date.now`). Stories and tests pass a manual clock so lifetimes and pauses
   * are checked without waiting in real time.
   */
  now?: () => number;
  labels?: ToastLabels;
  /**
   * Where the stack sits. 'auto' (default): the bottom inline-end corner, and on a phone-width
   * viewport (under 768 px) the top edge, full width, over the app's top bar: at the bottom of a
   * phone the stack would cover the pager, the form's save button or the map's vehicle sheet,
   * which are all there. 'bottom' / 'top' force one placement.
   */
  placement?: ToastPlacement;
}

export const toastPlacements = ['auto', 'bottom', 'top'] as const;
export type ToastPlacement = (typeof toastPlacements)[number];

const viewportPlacement: Record<ToastPlacement, string> = {
  bottom: 'end-4 bottom-4 w-[min(24rem,calc(100vw-2rem))]',
  top: 'inset-x-2 top-2 flex-col-reverse',
  auto: 'end-4 bottom-4 w-[min(24rem,calc(100vw-2rem))] max-md:start-2 max-md:end-2 max-md:top-2 max-md:bottom-auto max-md:w-auto max-md:flex-col-reverse',
};

/** Classes of the toast stack's viewport per placement (for apps that draw their own queue). */
export function toastViewportClass(placement: ToastPlacement = 'auto'): string {
  return cn('pointer-events-none fixed z-[100] flex flex-col gap-2', viewportPlacement[placement]);
}

/**
 * Holds the toast stack and renders the viewport at the bottom inline-end corner. Default timeout
 * 5000 ms (from @fleet/core); 0 keeps a toast until dismissed; hovering or focusing a toast
 * pauses its timer. Newest toasts are at the bottom, nearest the corner.
 */
export function ToastProvider({
  children,
  max = 5,
  tickMs = 200,
  now = Date.now,
  labels,
  placement = 'auto',
}: ToastProviderProps) {
  const [toasts, setToasts] = useState<ActiveToast[]>([]);
  const nextId = useRef(1);
  const { locale } = useUi();
  const text = useLabels(['toastRegion'], labels);
  const clock = useRef(now);
  useLayoutEffect(() => {
    clock.current = now;
  });

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const api = useMemo<ToastApi>(
    () => ({
      toast: (input) => {
        const toast = createToast(input, locale);
        const id = nextId.current++;
        setToasts((list) =>
          [...list, { ...toast, id, remaining: toast.timeout, runningSince: clock.current() }].slice(-max),
        );
        return id;
      },
      dismiss,
      clear: () => setToasts([]),
    }),
    [dismiss, locale, max],
  );

  const hasTimed = toasts.some((t) => t.timeout > 0 && t.runningSince !== null);
  useEffect(() => {
    if (!hasTimed) return;
    const timer = setInterval(() => {
      const at = clock.current();
      setToasts((list) => {
        const kept = list.filter(
          (t) => t.timeout === 0 || t.runningSince === null || at - t.runningSince < t.remaining,
        );
        return kept.length === list.length ? list : kept;
      });
    }, tickMs);
    return () => clearInterval(timer);
  }, [hasTimed, tickMs]);

  const setPaused = useCallback((id: number, paused: boolean) => {
    const at = clock.current();
    setToasts((list) =>
      list.map((t) => {
        if (t.id !== id) return t;
        if (paused && t.runningSince !== null)
          return { ...t, remaining: t.remaining - (at - t.runningSince), runningSince: null };
        if (!paused && t.runningSince === null) return { ...t, runningSince: at };
        return t;
      }),
    );
  }, []);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section
        aria-label={text.toastRegion}
        data-slot="toast-viewport"
        data-placement={placement}
        className={toastViewportClass(placement)}
      >
        {toasts.map((t) => (
          <ToastCard
            key={t.id}
            toast={t}
            labels={labels}
            onDismiss={() => dismiss(t.id)}
            onPauseChange={(paused) => setPaused(t.id, paused)}
          />
        ))}
      </section>
    </ToastContext.Provider>
  );
}
