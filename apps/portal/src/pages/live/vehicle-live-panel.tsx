import { useTranslation } from 'react-i18next';
import { DetailSection } from '@fleet/ui';
import { useLiveVehicles } from '../../live/use-live-vehicles';
import { useNow } from '../../live/use-now';
import { VehicleSummary } from '../../live/vehicle-summary';

/** The vehicle page's live card: latest location from the live cache (kept current by the socket). */
export function VehicleLivePanel({ vehicleUuid }: { vehicleUuid: string }) {
  const { t } = useTranslation('live');
  const live = useLiveVehicles();
  const now = useNow();
  const vehicle = live.data?.data.find((v) => v.uuid === vehicleUuid);
  if (!vehicle) return null;
  return (
    <DetailSection title={t('page.map')}>
      <VehicleSummary vehicle={vehicle} now={now} compact />
    </DetailSection>
  );
}
