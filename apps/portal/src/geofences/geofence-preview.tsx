import { useTranslation } from 'react-i18next';
import { GeofenceLayer } from '@fleet/ui';
import { MapView } from '../map/map-view';
import { DetailSection } from '@fleet/ui';
import { geometryCenter, toUiGeometry, type ApiGeometry } from './geometry';

/** The geofence's shape on the map (details page). */
export function GeofencePreview({ geofence }: { geofence: Record<string, unknown> }) {
  const { t } = useTranslation('entities');
  const geometry = geofence.geometry as ApiGeometry;
  const shape = {
    id: String(geofence.uuid),
    name: String(geofence.name ?? ''),
    color: typeof geofence.color === 'string' ? geofence.color : null,
    geometry: toUiGeometry(geometry),
  };
  return (
    <DetailSection title={t('section.map')}>
      <div className="h-72 overflow-hidden rounded-md border border-border">
        <MapView center={geometryCenter(geometry)} zoom={14} className="h-full">
          <GeofenceLayer shapes={[shape]} selectedId={shape.id} />
        </MapView>
      </div>
    </DetailSection>
  );
}
