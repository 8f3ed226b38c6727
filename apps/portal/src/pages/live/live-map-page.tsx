import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { LiveVehicle } from '@fleet/api-client';
import { PageHeader, toVehicleMarker, VehicleLayer, type VehicleMarker } from '@fleet/ui';
import { MapView } from '../../map/map-view';
import { LiveStatusTabs } from '../../live/live-status-tabs';
import { useLiveView } from '../../live/use-live-view';
import { VehicleSummary } from '../../live/vehicle-summary';
import { usePageReady } from '../../state/use-page-ready';
import { CameraPanel } from '../../live/camera-panel';

const DEFAULT_CENTER: [number, number] = [25.2048, 55.2708];

/**
 * Markers remembered per vehicle object and time. A live update replaces only the moved vehicle's
 * object (live/merge), so on each frame the other ~1,000 markers are reused as they are instead of
 * re-running the status rule and allocating a new marker for every vehicle; the map layer then sees
 * the same objects for vehicles that did not move.
 */
const markerCache = new WeakMap<LiveVehicle, { now: number; marker: VehicleMarker | null }>();
function markerOf(v: LiveVehicle, now: number): VehicleMarker | null {
  const hit = markerCache.get(v);
  if (hit && hit.now === now) return hit.marker;
  const marker = toVehicleMarker(
    {
      id: v.uuid,
      type: v.type,
      latest: v.location,
      heading: v.location?.heading ?? null,
      label: v.license_plate_number,
    },
    now,
  );
  markerCache.set(v, { now, marker });
  return marker;
}

/** live: vehicles on the map with status tabs (counts), the selected vehicle's popup, the camera tab. */
export default function LiveMapPage() {
  const { t } = useTranslation('live');
  const view = useLiveView();
  const selected = view.params.get('vehicle');
  usePageReady(view.live.isSuccess);

  const markers = useMemo(() => {
    const out: VehicleMarker[] = [];
    for (const v of view.visible) {
      const marker = markerOf(v, view.now);
      if (marker) out.push(marker);
    }
    return out;
  }, [view.visible, view.now]);

  const hasMarkers = markers.length > 0;
  const center = useMemo<[number, number]>(() => {
    const chosen = view.vehicles.find((v) => v.uuid === selected)?.location;
    if (chosen?.latitude != null && chosen.longitude != null) return [chosen.latitude, chosen.longitude];
    const first = markers[0];
    return first ? [first.lat, first.lng] : DEFAULT_CENTER;
    // Centre once per selection, not on every position update.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected, hasMarkers]);

  // Stable between live batches (they change the data, not the URL or the selection).
  const { params, setParams } = view;
  const select = useCallback(
    (id: string | null) => {
      const next = new URLSearchParams(params);
      if (id) next.set('vehicle', id);
      else next.delete('vehicle');
      setParams(next, { replace: true });
    },
    [params, setParams],
  );
  const byId = useMemo(() => new Map(view.vehicles.map((v) => [v.uuid, v])), [view.vehicles]);
  const { now } = view;
  const renderPopup = useCallback(
    (marker: VehicleMarker) => {
      const vehicle = byId.get(marker.id);
      return vehicle ? <VehicleSummary vehicle={vehicle} now={now} compact /> : null;
    },
    [byId, now],
  );

  return (
    <div className="flex h-[calc(100dvh-7rem)] flex-col gap-2" data-testid="live-map">
      <PageHeader
        className="mb-4"
        title={t('page.map')}
        actions={
          <Link
            className="text-sm text-primary underline"
            to={`/dashboard/live/list${view.tab !== 'all' ? `?tab=${view.tab}` : ''}`}
          >
            {t('view.list')}
          </Link>
        }
      />
      <LiveStatusTabs
        value={view.tab}
        counts={view.counts}
        onValueChange={view.setTab}
        camera={view.camera}
        onCameraChange={view.setCamera}
      />
      {view.camera ? (
        <CameraPanel vehicles={view.visible} selected={selected} onSelect={select} />
      ) : (
        <div className="min-h-80 flex-1 overflow-hidden rounded-lg border border-border">
          <MapView center={center} zoom={11} className="h-full">
            <VehicleLayer
              vehicles={markers}
              selectedId={selected}
              onSelect={select}
              renderPopup={renderPopup}
            />
          </MapView>
        </div>
      )}
    </div>
  );
}
