import { validateToast, type Toast, type ToastKind } from '@fleet/core';

export type { ToastKind };

export interface ToastItem extends Toast {
  id: number;
}

export interface ToastInput {
  kind?: ToastKind;
  message?: string;
  caption?: string;
  timeout?: number;
}

/**
 * The app's toast queue. Each toast is checked by @fleet/core's rule (text required, timeout a
 * non-negative number, 5000 ms by default); a bad one is dropped (and logged), never thrown at the user.
 */
export class ToastQueue {
  private items: ToastItem[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly schedule: (fn: () => void, ms: number) => ReturnType<typeof setTimeout> = (fn, ms) =>
      setTimeout(fn, ms),
    private readonly cancel: (handle: ReturnType<typeof setTimeout>) => void = (handle) =>
      clearTimeout(handle),
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): readonly ToastItem[] => this.items;

  /** Adds a toast; returns its id, or null when core's rule refuses it. */
  show(input: ToastInput): number | null {
    const result = validateToast({ kind: 'success', ...input });
    if (!result.ok) {
      console.warn('toast refused:', result.errors.join('; '));
      return null;
    }
    const item: ToastItem = { ...result.toast, id: this.nextId++ };
    this.items = [...this.items, item];
    if (item.timeout > 0)
      this.timers.set(
        item.id,
        this.schedule(() => this.dismiss(item.id), item.timeout),
      );
    this.emit();
    return item.id;
  }

  dismiss(id: number): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) this.cancel(timer);
    this.timers.delete(id);
    const next = this.items.filter((t) => t.id !== id);
    if (next.length === this.items.length) return;
    this.items = next;
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
