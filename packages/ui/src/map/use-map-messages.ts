import { useMemo } from 'react';
import { useUi } from '../provider';
import { mapMessagesAr } from './messages.ar';
import { mapMessagesEn, type MapMessages } from './messages.en';

/** Map chrome strings in the provider's language, with a component's `labels` overrides applied. */
export function useMapMessages(labels?: Partial<MapMessages>): MapMessages {
  const { locale } = useUi();
  return useMemo(
    () => ({ ...(locale === 'ar' ? mapMessagesAr : mapMessagesEn), ...labels }),
    [locale, labels],
  );
}
