import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDuration, statusTone, type MessageKey, type VehicleStatus } from '@fleet/core';
import type { LiveVehicle } from '@fleet/api-client';
import {
  Button,
  CloseIcon,
  FleetList,
  FollowVehicle,
  FollowVehicleButton,
  IconButton,
  PageHeader,
  toVehicleMarker,
  VehicleLayer,
  type FleetListItem,
  type VehicleMarker,
} from '@fleet/ui';
import { MapView } from '../../map/map-view';
import { useCoreText } from '../../i18n/core-text';
import { ResizablePane } from '../../live/console/resizable-pane';
import { useMapCamera } from '../../live/console/use-map-camera';
import { LiveStatusTabs } from '../../live/live-status-tabs';
import { useLiveView } from '../../live/use-live-view';
import { keepChosen } from '../../live/keep-chosen';
import { VehicleSummary } from '../../live/vehicle-summary';
import { usePageReady } from '../../state/use-page-ready';
import { CameraPanel } from '../../live/camera-panel';
import { useSmallScreen } from '../../app/guards';

const DEFAULT_CENTER: [number, number] = [25.2048, 55.2708];

/**
 * Markers remembered per vehicle object and time. A live update replaces only the moved vehicle's
 * object (live/merge), so on each frame the other ~1,000 markers are reused as they are instead of
 * re-running the status rule and allocating a new marker for every vehicle; the map layer then sees
 * the same objects for vehicles that did not move.
 */
const markerCache = new WeakMap<LiveVehicle, { now: number; marker: VehicleMarker | null }>();
/** `status`: the one the live view computed for this vehicle and time (the rule runs once per update). */
function markerOf(v: LiveVehicle, now: number, status: VehicleStatus | undefined): VehicleMarker | null {
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
    status,
  );
  markerCache.set(v, { now, marker });
  return marker;
}

/**
 * live: the live console. On desktop a resizable, searchable, virtualised vehicle list sits beside the
 * map (status tabs above both); choosing a row flies to the vehicle and opens its card, a marker click
 * selects the row. The map fits the visible fleet on first open and keeps the user's view afterwards
 * (use-map-camera.ts); "Follow" keeps the chosen vehicle in view as it moves (the kit's FollowVehicle: a
 * drag or an arrow-key pan turns it off, the toggle turns it on again and recentres). Phones keep the map
 * alone (the list page is one tap away), filling the screen under the status tabs, and show the
 * chosen vehicle in a bottom sheet instead of a popup over the marker (a popup on a 390 px map hides
 * the vehicle it describes and half the map); the fit and follow buttons ride on top of the sheet.
 */
export default function LiveMapPage() {
  const { t, i18n } = useTranslation('live');
  const core = useCoreText();
  const view = useLiveView();
  const selected = view.params.get('vehicle');
  const [following, setFollowing] = useState(false);
  const small = useSmallScreen();
  usePageReady(view.live.isSuccess);

  // The chosen vehicle stays on the map and in the list when its status leaves the open tab (see
  // live/keep-chosen.ts): its card must not vanish under the user's eyes when the bus parks.
  const shown = useMemo(
    () => keepChosen(view.visible, view.vehicles, selected),
    [view.visible, view.vehicles, selected],
  );

  const markers = useMemo(() => {
    const out: VehicleMarker[] = [];
    for (const v of shown) {
      const marker = markerOf(v, view.now, view.statusOf.get(v.uuid));
      if (marker) out.push(marker);
    }
    return out;
  }, [shown, view.now, view.statusOf]);
  // Opened on a vehicle named in the address (read once: later selections fly to the vehicle instead).
  const [focusId] = useState(selected);
  const focusLocation = focusId ? view.vehicles.find((v) => v.uuid === focusId)?.location : null;
  const focusLat = focusLocation?.latitude;
  const focusLng = focusLocation?.longitude;
  const loaded = view.live.isSuccess;
  const focus = useMemo(
    () =>
      !focusId
        ? null
        : focusLat != null && focusLng != null
          ? { lat: focusLat, lng: focusLng }
          : loaded
            ? null
            : ('pending' as const),
    [focusId, focusLat, focusLng, loaded],
  );
  const camera = useMapCamera(markers, focus);
  const { flyTo } = camera;

  // Stable between live batches (they change the data, not the URL or the selection).
  const { params, setParams } = view;
  const select = useCallback(
    (id: string | null) => {
      const next = new URLSearchParams(params);
      if (id) next.set('vehicle', id);
      else next.delete('vehicle');
      setParams(next, { replace: true });
      if (!id) setFollowing(false);
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

  const chosen = selected ? byId.get(selected) : undefined;
  const chosenLat = chosen?.location?.latitude;
  const chosenLng = chosen?.location?.longitude;

  const pick = useCallback(
    (id: string) => {
      select(id);
      const loc = byId.get(id)?.location;
      if (loc?.latitude != null && loc.longitude != null) flyTo(loc.latitude, loc.longitude);
    },
    [select, byId, flyTo],
  );

  const items = useMemo<FleetListItem[]>(
    () =>
      shown.map((v) => {
        const status = view.statusOf.get(v.uuid) ?? 'no-data';
        const seen = v.location?.created_at ? Date.parse(v.location.created_at) : NaN;
        return {
          id: v.uuid,
          plateText: v.license_plate_number,
          driver: v.driver?.name ?? null,
          speedKmh: status === 'live' && v.location ? v.location.speed : null,
          lastSeen: !Number.isFinite(seen)
            ? t('console.never')
            : now - seen < 15_000
              ? t('console.justNow')
              : t('console.ago', { duration: formatDuration((now - seen) / 1000, i18n.language) }),
          tone: statusTone(status),
          statusLabel: core(`status.${status}` as MessageKey),
        };
      }),
    [shown, view.statusOf, now, t, i18n.language, core],
  );

  return (
    // Phones: the top bar (3.5rem) and the main's padding (2rem) are all that is not map.
    <div
      className="flex h-[calc(100dvh-5.5rem)] flex-col gap-2 md:h-[calc(100dvh-7rem)]"
      data-testid="live-map"
    >
      <PageHeader
        className="md:mb-4"
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
        <div className="flex min-h-80 flex-1" data-testid="live-console">
          <ResizablePane label={t('console.resize')}>
            <FleetList
              items={items}
              selectedId={selected}
              onSelect={pick}
              className="h-full"
              labels={{ label: t('console.list') }}
            />
          </ResizablePane>
          <div className="relative min-w-0 flex-1 overflow-hidden rounded-lg border border-border">
            <MapView
              center={DEFAULT_CENTER}
              zoom={11}
              className="h-full"
              onReady={camera.onReady}
              onViewChange={camera.onViewChange}
            >
              <VehicleLayer
                vehicles={markers}
                selectedId={selected}
                onSelect={select}
                {...(small ? {} : { renderPopup })}
              />
              {/* Follow mode keeps the chosen vehicle in view as it moves; a drag (or arrow-key pan)
                  turns it off, the toggle in the bar below turns it on again and recentres. */}
              <FollowVehicle
                position={chosenLat != null && chosenLng != null ? { lat: chosenLat, lng: chosenLng } : null}
                following={following}
                onFollowingChange={setFollowing}
                keep="edge"
                control="none"
              />
            </MapView>
            <div className="pointer-events-none absolute inset-x-0 bottom-0 z-[500] flex flex-col gap-2">
              <div className="pointer-events-auto ms-3 mb-3 flex gap-2 self-start">
                <Button size="sm" variant="outline" onClick={() => camera.fitAll()} data-testid="live-fit">
                  {t('console.fitFleet')}
                </Button>
                {chosen ? (
                  <FollowVehicleButton
                    following={following}
                    onFollowingChange={setFollowing}
                    name={chosen.license_plate_number}
                    data-testid="live-follow"
                  />
                ) : null}
              </div>
              {small && chosen ? (
                <section
                  data-testid="live-sheet"
                  aria-label={t('console.sheet', { plate: chosen.license_plate_number })}
                  className="pointer-events-auto max-h-[45dvh] overflow-y-auto rounded-t-xl border-t border-border bg-surface p-3 pt-2 text-sm shadow-lg"
                >
                  <div className="mb-1 flex items-center justify-between gap-2">
                    <span aria-hidden="true" className="mx-auto h-1 w-10 rounded-full bg-border-strong" />
                    <IconButton
                      label={t('console.closeSheet')}
                      icon={<CloseIcon />}
                      onClick={() => select(null)}
                      data-testid="live-sheet-close"
                    />
                  </div>
                  <VehicleSummary vehicle={chosen} now={now} compact />
                </section>
              ) : null}
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
