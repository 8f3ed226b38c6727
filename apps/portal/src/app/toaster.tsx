import { useSyncExternalStore } from 'react';
import { ToastCard, useUi } from '@fleet/ui';
import { useServices } from '../state/app-context';

/**
 * The app's toast queue drawn with the kit's ToastCard. The queue lives in the services (not in the
 * kit's ToastProvider) because toasts also come from outside React: the API error hook, native push,
 * the live socket. The viewport mirrors the kit's: bottom inline-end corner, newest nearest the corner.
 * Timers are not paused on hover (the kit's ToastProvider does): live notifications arrive all the
 * time, and a paused toast sitting over the page's bottom-end buttons (wizard Next, form Save) would
 * keep covering them for as long as the pointer rests there. Each toast has its dismiss button.
 */
export function Toaster() {
  const { toasts } = useServices();
  const items = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot, toasts.getSnapshot);
  const { messages } = useUi();
  return (
    <section
      aria-label={messages.toastRegion}
      data-slot="toast-viewport"
      className="pointer-events-none fixed end-4 bottom-4 z-[100] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2"
    >
      {items.map((item) => (
        <ToastCard key={item.id} toast={item} onDismiss={() => toasts.dismiss(item.id)} />
      ))}
    </section>
  );
}
