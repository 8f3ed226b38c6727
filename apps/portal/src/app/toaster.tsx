import { useSyncExternalStore } from 'react';
import { ToastCard, toastViewportClass, useUi } from '@fleet/ui';
import { useServices } from '../state/app-context';

/**
 * The app's toast queue drawn with the kit's ToastCard. The queue lives in the services (not in the
 * kit's ToastProvider) because toasts also come from outside React: the API error hook, native push,
 * the live socket. The viewport is the kit's: bottom inline-end corner, newest nearest the corner, and
 * on a phone the top edge (at the bottom it covered the pager, Save and the map's vehicle sheet).
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
      className={toastViewportClass('auto')}
    >
      {items.map((item) => (
        <ToastCard key={item.id} toast={item} onDismiss={() => toasts.dismiss(item.id)} />
      ))}
    </section>
  );
}
