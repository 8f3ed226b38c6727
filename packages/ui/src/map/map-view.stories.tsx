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
