/**
 * Map benchmark page: 10,000 vehicles on the canvas VehicleLayer, then 10,000 position updates,
 * timed on the main thread (performance.now around the synchronous work, plus the time to the next
 * frame, plus any long tasks).
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { UiProvider } from '../src/provider';
import { MapView } from '../src/map/map-view';
import { VehicleLayer, type VehicleLayerHandle } from '../src/map/vehicle-layer';
import { DUBAI, demoUpdates, demoVehicles } from '../src/map/fixtures';
import type { VehicleMarker } from '../src/map/vehicle-index';
import type L from 'leaflet';
import { afterPaint, fail, nextFrame, report, stats, timed, withLongTasks } from './measure';
import './bench.css';

const COUNT = 10_000;
const ROUNDS = 10;

let setVehicles: (v: VehicleMarker[]) => void = () => {};
let layerHandle: VehicleLayerHandle | null = null;
let clusterMaxZoom: (z: number) => void = () => {};
let mapRef: L.Map | null = null;

function App() {
  const [vehicles, set] = useState<VehicleMarker[]>([]);
  const [cluster, setCluster] = useState(-1);
  const ref = useRef<VehicleLayerHandle>(null);
  useLayoutEffect(() => {
    setVehicles = set;
    clusterMaxZoom = setCluster;
  }, []);
  return (
    <UiProvider locale="en">
      <MapView
        center={DUBAI}
        zoom={12}
        tiles={{ kind: 'local' }}
        animate={false}
        size="fill"
        className="h-[800px] w-[1280px]"
        onReady={(m) => (mapRef = m)}
      >
        <VehicleLayer
          vehicles={vehicles}
          clusterMaxZoom={cluster}
          ref={(h) => {
            ref.current = h;
            layerHandle = h;
          }}
        />
      </MapView>
    </UiProvider>
  );
}

async function run() {
  createRoot(document.getElementById('root')!).render(<App />);
  for (let i = 0; i < 100 && !layerHandle; i++) await nextFrame();
  if (!layerHandle) throw new Error('VehicleLayer did not mount');
  // All 10,000 inside the 1280x800 viewport at zoom 12 (~0.22 x 0.14 degrees around Dubai).
  const vehicles = demoVehicles(COUNT, 42, DUBAI, 0.09);
  // Let the empty map settle first (tiles created, their first compositor commits done: ~15 ms of
  // main-thread work each, for the first two or three frames of any new map), so the first-draw
  // figure is the vehicle layer's own cost and not the tile layer's start-up.
  await waitForIdleMap();

  let initialRender = 0;
  // 1) Initial draw: React render of 10,000 vehicles + store diff + canvas paint.
  const initial = await withLongTasks(() =>
    timed(() => {
      const r0 = performance.now();
      flushSync(() => setVehicles(vehicles));
      initialRender = performance.now() - r0;
      layerHandle!.redrawNow();
    }, 'initial'),
  );
  const drawn = layerHandle.drawnItems().length;

  // 2) Position updates: 10,000 per round through the imperative real-time path.
  const updateSync: number[] = [];
  const updateFrame: number[] = [];
  const updateLong: number[] = [];
  const applyMs: number[] = [];
  const layoutMs: number[] = [];
  const paintMs: number[] = [];
  let current: VehicleMarker[] = vehicles;
  for (let round = 0; round < ROUNDS; round++) {
    const updates = demoUpdates(current, 100 + round);
    const r = await withLongTasks(() =>
      timed(() => {
        const a0 = performance.now();
        const applied = layerHandle!.updatePositions(updates);
        applyMs.push(performance.now() - a0);
        if (applied !== COUNT) throw new Error(`applied ${applied} of ${COUNT}`);
        const draw = layerHandle!.redrawNow();
        layoutMs.push(draw.layoutMs);
        paintMs.push(draw.paintMs);
      }, `update-${round}`),
    );
    updateSync.push(r.result.syncMs);
    updateFrame.push(r.result.toFrameMs);
    updateLong.push(...r.longTasks);
    current = current.map((v, i) => ({ ...v, lat: updates[i]!.lat, lng: updates[i]!.lng }));
  }

  // 3) The same updates through React props (a new array each time, diffed by id).
  const propSync: number[] = [];
  for (let round = 0; round < 3; round++) {
    const updates = demoUpdates(current, 200 + round);
    current = current.map((v, i) => ({
      ...v,
      lat: updates[i]!.lat,
      lng: updates[i]!.lng,
      heading: updates[i]!.heading,
    }));
    const snapshot = current;
    const r = await timed(() => {
      flushSync(() => setVehicles(snapshot));
      layerHandle!.redrawNow();
    });
    propSync.push(r.syncMs);
  }

  const compact = layerHandle.redrawNow().compact;

  // 4) Full-detail sprites: zoom in until fewer than the detail limit (1500) are in view.
  mapRef!.setView(DUBAI, 16, { animate: false });
  await afterPaint();
  const detail = await timed(() => {
    layerHandle!.redrawNow();
  });
  const detailItems = layerHandle.drawnItems().length;
  const detailStats = layerHandle.redrawNow();
  mapRef!.setView(DUBAI, 12, { animate: false });
  await afterPaint();

  // 5) Clustered draw at the default cluster zoom.
  flushSync(() => clusterMaxZoom(12));
  await nextFrame();
  const clustered = await timed(() => {
    layerHandle!.redrawNow();
  });
  const clusterItems = layerHandle.drawnItems().length;

  report({
    markers: COUNT,
    drawnMarkers: drawn,
    initialDraw: {
      renderMs: round2(initialRender),
      syncMs: round2(initial.result.syncMs),
      toFrameMs: round2(initial.result.toFrameMs),
      longTasks: initial.longTasks,
    },
    updates: {
      sync: stats(updateSync),
      toFrame: stats(updateFrame),
      longTasks: updateLong,
      applyMs: stats(applyMs),
      layoutMs: stats(layoutMs),
      paintMs: stats(paintMs),
    },
    propUpdates: stats(propSync),
    clustered: {
      items: clusterItems,
      syncMs: round2(clustered.syncMs),
      toFrameMs: round2(clustered.toFrameMs),
    },
    compact,
    detail: {
      items: detailItems,
      compact: detailStats.compact,
      syncMs: round2(detail.syncMs),
      toFrameMs: round2(detail.toFrameMs),
    },
    devicePixelRatio: window.devicePixelRatio,
  });
}

async function waitForIdleMap() {
  for (let i = 0; i < 600; i++) {
    await afterPaint();
    if (document.querySelector<HTMLElement>('[data-slot="map-view"]')?.dataset.mapState === 'idle') break;
  }
  for (let i = 0; i < 3; i++) await afterPaint();
}

const round2 = (n: number) => Math.round(n * 100) / 100;
run().catch(fail);
