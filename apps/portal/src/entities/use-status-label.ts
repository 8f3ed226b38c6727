import type { MessageKey } from '@fleet/core';
import { useTranslation } from 'react-i18next';
import { useCoreText } from '../i18n/core-text';

/** Label of an entity/trip/vehicle status: core's texts, 'maintenance' from the portal catalog. */
export function useStatusLabel(): (status: string) => string {
  const core = useCoreText();
  const { t } = useTranslation('common');
  return (status) => {
    if (['active', 'inactive', 'expired'].includes(status)) return core(`entity.${status}` as MessageKey);
    if (['pending', 'started', 'completed', 'delayed', 'missed', 'cancelled'].includes(status))
      return core(`trip.${status}` as MessageKey);
    if (status === 'unplugged') return core('device.unplugged');
    if (status === 'maintenance') return t('status.maintenance');
    return status;
  };
}
