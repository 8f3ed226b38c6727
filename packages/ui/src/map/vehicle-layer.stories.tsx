import type { Meta, StoryObj } from '@storybook/react-vite';
import type L from 'leaflet';
import { useMemo, useRef, useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { DUBAI, demoUpdates, demoVehicles, type DemoVehicle } from './fixtures';
import { MapView } from './map-view';
import {
  clickMapAt,
  leafletContainer,
  mapLabels,
  moveMouseAt,
  pointOf,
  waitForMapIdle,
} from './story-helpers';
import { VehicleLayer, type VehicleLayerHandle, type VehicleLayerProps } from './vehicle-layer';
import { VehiclePopup } from './vehicle-popup';
import type { VehicleMarker } from './vehicle-index';

let storyMap: L.Map | null = null;

interface StoryArgs extends Omit<VehicleLayerProps, 'vehicles'> {
  count: number;
  zoom: number;
  onMoved?: (applied: number) => void;
}

function VehicleMap({ count, zoom, onSelect, onMoved, ...layer }: StoryArgs) {
  const [vehicles] = useState(() => demoVehicles(count, 11, DUBAI, count > 100 ? 0.5 : 0.08));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const handle = useRef<VehicleLayerHandle>(null);
  const byId = useMemo(() => new Map<string, DemoVehicle>(vehicles.map((v) => [v.id, v])), [vehicles]);
  return (
    <div className="flex flex-col gap-2">
      <MapView
        center={DUBAI}
        zoom={zoom}
        tiles={{ kind: 'local' }}
        animate={false}
        size="lg"
        onReady={(m) => (storyMap = m)}
      >
        <VehicleLayer
          {...layer}
          ref={handle}
          vehicles={vehicles}
          selectedId={selectedId}
          onSelect={(id) => {
            setSelectedId(id);
            onSelect?.(id);
          }}
          renderPopup={(v: VehicleMarker) => {
            const demo = byId.get(v.id);
            const [category, number] = (demo?.plate ?? '').split(' ');
            return (
              <VehiclePopup
                plate={{ stateCode: 'DXB', category: category ?? null, number: number ?? '' }}
                speed={demo?.status === 'live' ? 42 : 0}
                lastUpdate="2026-11-20 10:15"
                {...(demo ? { status: demo.status } : {})}
              />
            );
          }}
        />
      </MapView>
      <button
        type="button"
        className="self-start rounded-md border border-border-strong bg-surface px-3 py-1 text-sm text-foreground"
        onClick={() => onMoved?.(handle.current?.updatePositions(demoUpdates(vehicles)) ?? 0)}
      >
        Apply {count} position updates
      </button>
    </div>
  );
}

const meta = {
  title: 'Map/VehicleLayer',
  // Screenshot-stable: local tiles, animations off (instant pans), and every story waits after its
  // play function until the map is idle (tiles drawn, no pan or zoom running, no redraw pending).
  afterEach: async ({ canvasElement }) => waitForMapIdle(canvasElement),
  render: (args) => <VehicleMap {...args} />,
  args: { count: 40, zoom: 13, onSelect: fn(), onHover: fn(), onMoved: fn(), clusterMaxZoom: 12 },
} satisfies Meta<StoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

const canvasOf = (root: HTMLElement) => root.querySelector<HTMLCanvasElement>('[data-slot="vehicle-canvas"]');

/** Markers drawn on one canvas; click one to select it and open its popup; hover reports the vehicle. */
export const Markers: Story = {
  play: async ({ canvasElement, args }) => {
    await waitFor(() => expect(Number(canvasOf(canvasElement)?.dataset.drawn)).toBeGreaterThan(0));
    await expect(canvasOf(canvasElement)).toHaveAttribute('data-clusters', '0');
    await expect(canvasElement.querySelectorAll('.leaflet-marker-icon')).toHaveLength(0);
    const map = storyMap!;
    const target = demoVehicles(40, 11, DUBAI, 0.08).find((v) => {
      const p = pointOf(map, v.lat, v.lng);
      return p.x > 40 && p.y > 40 && p.x < map.getSize().x - 40 && p.y < map.getSize().y - 40;
    })!;
    const p = pointOf(map, target.lat, target.lng);
    const container = leafletContainer(canvasElement);
    moveMouseAt(container, p.x, p.y);
    await waitFor(() => expect(args.onHover).toHaveBeenCalled());
    clickMapAt(container, p.x, p.y);
    await waitFor(() => expect(args.onSelect).toHaveBeenCalled());
    const selectedId = (args.onSelect as ReturnType<typeof fn>).mock.calls[0]![0] as string;
    const plate = demoVehicles(40, 11, DUBAI, 0.08).find((v) => v.id === selectedId)!.plate;
    const popup = await waitFor(() => {
      const el = canvasElement.querySelector<HTMLElement>('[data-slot="vehicle-popup-content"]');
      if (!el) throw new Error('no popup yet');
      return el;
    });
    await expect(within(popup).getByRole('img').getAttribute('aria-label')).toContain(plate.split(' ')[1]);
    moveMouseAt(container, 1, 1);
    await waitForMapIdle(canvasElement);
  },
};

/** 10,000 vehicles at a low zoom: grid clusters; clicking a cluster zooms in. */
export const Clusters10k: Story = {
  args: { count: 10_000, zoom: 9 },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(Number(canvasOf(canvasElement)?.dataset.clusters)).toBeGreaterThan(0));
    const map = storyMap!;
    const zoomBefore = map.getZoom();
    const size = map.getSize();
    clickMapAt(leafletContainer(canvasElement), size.x / 2, size.y / 2);
    await waitFor(() => expect(map.getZoom()).toBeGreaterThan(zoomBefore));
    await waitForMapIdle(canvasElement);
  },
};

/** Position updates are applied in place (no re-creation) and redrawn on the next frame. */
export const LiveUpdates: Story = {
  args: { count: 200, zoom: 11 },
  play: async ({ canvasElement, args }) => {
    await waitFor(() => expect(Number(canvasOf(canvasElement)?.dataset.drawn)).toBeGreaterThan(0));
    await userEvent.click(within(canvasElement).getByRole('button', { name: /Apply 200 position updates/ }));
    await expect(args.onMoved).toHaveBeenCalledWith(200);
    await waitForMapIdle(canvasElement);
  },
};

/**
 * Keyboard and screen-reader access to the canvas markers: a focusable vehicle listbox in the map
 * overlay. Up/Down move between vehicles (focus ring on the canvas, map centred on the vehicle),
 * Enter opens the selected vehicle's popup, Escape closes it.
 */
export const KeyboardNavigation: Story = {
  play: async ({ canvasElement, args }) => {
    const t = mapLabels(canvasElement);
    const vehicles = demoVehicles(40, 11, DUBAI, 0.08);
    await waitFor(() => expect(Number(canvasOf(canvasElement)?.dataset.drawn)).toBeGreaterThan(0));
    const list = within(canvasElement).getByRole('listbox', { name: t.vehicleList });
    list.focus();
    await expect(list).toHaveFocus();
    const option = () => within(list).getByRole('option');
    await expect(option()).toHaveAttribute('aria-posinset', '1');
    await expect(option()).toHaveAttribute('aria-setsize', '40');
    await expect(option()).toHaveTextContent(vehicles[0]!.plate);
    await expect(list).toHaveAttribute('aria-activedescendant', option().id);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    await expect(option()).toHaveAttribute('aria-posinset', '3');
    await expect(option()).toHaveTextContent(vehicles[2]!.plate);
    // The map is centred on the active vehicle.
    const at = pointOf(storyMap!, vehicles[2]!.lat, vehicles[2]!.lng);
    const size = storyMap!.getSize();
    await expect(Math.abs(at.x - size.x / 2)).toBeLessThanOrEqual(1);
    await expect(Math.abs(at.y - size.y / 2)).toBeLessThanOrEqual(1);
    await userEvent.keyboard('{ArrowUp}');
    await expect(option()).toHaveTextContent(vehicles[1]!.plate);
    await expect(option()).toHaveAttribute('aria-selected', 'false');
    await userEvent.keyboard('{Enter}');
    await expect(args.onSelect).toHaveBeenLastCalledWith(vehicles[1]!.id);
    await waitFor(() =>
      expect(canvasElement.querySelector('[data-slot="vehicle-popup-content"]')).not.toBeNull(),
    );
    await expect(option()).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Escape}');
    await expect(args.onSelect).toHaveBeenLastCalledWith(null);
    await waitFor(() =>
      expect(canvasElement.querySelector('[data-slot="vehicle-popup-content"]')).toBeNull(),
    );
    await userEvent.keyboard('{End}');
    await expect(option()).toHaveAttribute('aria-posinset', '40');
    await userEvent.keyboard('{Home}');
    await expect(option()).toHaveAttribute('aria-posinset', '1');
    // Still focused: the screenshot shows the visible panel and the ring on the canvas.
    await expect(list).toHaveFocus();
    await waitForMapIdle(canvasElement);
  },
};
