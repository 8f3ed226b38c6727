/**
 * The page-ready flag of spec §2: every navigation resets it; a page sets it once its first data is
 * shown. Mirrored to <html data-page-ready> so end-to-end tests and the benchmark can wait on it.
 */
export class PageReadyFlag {
  private ready = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly mirror: (ready: boolean) => void = () => undefined) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): boolean => this.ready;

  reset(): void {
    this.setReady(false);
  }

  markReady(): void {
    this.setReady(true);
  }

  private setReady(ready: boolean): void {
    if (this.ready === ready) return;
    this.ready = ready;
    this.mirror(ready);
    for (const listener of this.listeners) listener();
  }
}
