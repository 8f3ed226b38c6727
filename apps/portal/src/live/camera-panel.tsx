import { useTranslation } from 'react-i18next';
import type { LiveVehicle } from '@fleet/api-client';
import { Card, NativeSelect } from '@fleet/ui';

/**
 * Camera footage tab. The contract (spec §7 and @fleet/api-client) has no camera endpoint yet, so the
 * tab lets the user pick a vehicle and states that no footage is available; footage would be served
 * from file/{kind}/{name} with the media token once devices upload it.
 */
export function CameraPanel({
  vehicles,
  selected,
  onSelect,
}: {
  vehicles: readonly LiveVehicle[];
  selected: string | null;
  onSelect: (id: string | null) => void;
}) {
  const { t } = useTranslation('live');
  return (
    <Card data-testid="camera-panel" className="flex flex-col gap-3">
      <h2 className="text-base font-semibold text-foreground">{t('camera.title')}</h2>
      <label className="flex flex-col gap-1 text-sm text-foreground">
        {t('camera.choose')}
        <NativeSelect value={selected ?? ''} onChange={(e) => onSelect(e.target.value || null)}>
          <option value="">—</option>
          {vehicles.map((v) => (
            <option key={v.uuid} value={v.uuid}>
              {v.license_plate_number}
            </option>
          ))}
        </NativeSelect>
      </label>
      {selected ? <p className="text-foreground-muted">{t('camera.empty')}</p> : null}
    </Card>
  );
}
