import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { DUBAI } from './fixtures';
import { MapView, mapViewSizes } from './map-view';
import { leafletContainer, mapLabels, waitForMapIdle } from './story-helpers';

const meta = {
  title: 'Map/MapView',
  // Screenshot-stable: local tiles, animations off (instant pans), and every story waits after its
  // play function until the map is idle (tiles drawn, no pan or zoom running, no redraw pending).
  afterEach: async ({ canvasElement }) => waitForMapIdle(canvasElement),
  component: MapView,
  args: { center: DUBAI, zoom: 11, tiles: { kind: 'local' }, animate: false, size: 'md' },
  argTypes: { size: { control: 'inline-radio', options: mapViewSizes } },
} satisfies Meta<typeof MapView>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Offline canvas tiles; the Leaflet container stays LTR and the zoom control sits at the top-end corner. */
export const LocalTiles: Story = {
  play: async ({ canvasElement }) => {
    const t = mapLabels(canvasElement);
    const container = leafletContainer(canvasElement);
    await expect(container).toHaveAttribute('dir', 'ltr');
    await expect(within(canvasElement).getByRole('region', { name: t.map })).toBe(container);
    await waitFor(() => expect(container.querySelectorAll('canvas.leaflet-tile').length).toBeGreaterThan(0));
    const rtl = canvasElement.ownerDocument.documentElement.dir === 'rtl';
    const corner = container.querySelector(rtl ? '.leaflet-top.leaflet-left' : '.leaflet-top.leaflet-right');
    const zoomIn = within(corner as HTMLElement).getByRole('button', { name: t.zoomIn });
    await userEvent.click(zoomIn);
    await waitFor(() => expect(container.querySelector('.leaflet-tile-container')).not.toBeNull());
  },
};

export const Small: Story = { args: { size: 'sm', zoom: 9 } };

/**
 * The bundled offline basemap (no network): sea, land, borders, the main roads of Dubai and Sharjah
 * and place names in the page language, drawn on canvas tiles.
 */
export const OfflineBasemap: Story = {
  args: { tiles: { kind: 'offline' }, center: [25.27, 55.36], zoom: 11, size: 'lg' },
  play: async ({ canvasElement }) => {
    const container = leafletContainer(canvasElement);
    await waitFor(() =>
      expect(container.querySelectorAll('canvas[data-slot="offline-basemap-tile"]').length).toBeGreaterThan(
        0,
      ),
    );
  },
};

/** The region at a glance: the UAE and its neighbours, emirates named. */
export const OfflineRegion: Story = {
  args: { tiles: { kind: 'offline' }, center: [25.0, 55.5], zoom: 7, size: 'lg' },
};

/**
 * Zoomed out past the region: the bundled data ends at its box, and the map fades into the neutral
 * "beyond" colour there instead of showing a rectangle of land cut off in the sea.
 */
export const OfflineZoomedOut: Story = {
  args: { tiles: { kind: 'offline' }, center: [25.0, 53.5], zoom: 4, size: 'lg' },
  play: async ({ canvasElement }) => {
    const container = leafletContainer(canvasElement);
    await waitFor(() =>
      expect(container.querySelectorAll('canvas[data-slot="offline-basemap-tile"]').length).toBeGreaterThan(
        0,
      ),
    );
  },
};

/**
 * Configured base layers with the switcher at the top-start corner. The tile URLs here cannot load
 * (a reserved .invalid host), so the map falls back to the offline basemap under them; picking
 * "Offline map" selects it outright.
 */
export const BaseLayerSwitcher: Story = {
  args: {
    center: [25.2, 55.28],
    zoom: 12,
    baseLayers: [
      {
        id: 'streets',
        label: 'Streets',
        url: 'http://tiles.invalid/{z}/{x}/{y}.png',
        attribution: 'Self-hosted tiles',
      },
      { id: 'satellite', label: 'Satellite', url: 'http://imagery.invalid/{z}/{y}/{x}.jpg' },
    ],
  },
  play: async ({ canvasElement, args }) => {
    const t = mapLabels(canvasElement);
    const select = within(canvasElement).getByRole('combobox', { name: t.baseLayer });
    await expect(select).toHaveValue('streets');
    const container = leafletContainer(canvasElement);
    await waitFor(() =>
      expect(container.querySelectorAll('canvas[data-slot="offline-basemap-tile"]').length).toBeGreaterThan(
        0,
      ),
    );
    await userEvent.selectOptions(select, 'offline');
    await expect(select).toHaveValue('offline');
    await waitFor(() => expect(container.querySelector('img.leaflet-tile')).toBeNull());
    void args;
  },
};
