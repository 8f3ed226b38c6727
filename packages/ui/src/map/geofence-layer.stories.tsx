import type { Meta, StoryObj } from '@storybook/react-vite';
import type L from 'leaflet';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { DUBAI } from './fixtures';
import { GeofenceLayer, type GeofenceLayerProps } from './geofence-layer';
import type { GeofenceShape, GeofenceShapeType } from './geofence-geometry';
import { MapView } from './map-view';
import { clickMapAt, leafletContainer, mapLabels, waitForMapIdle } from './story-helpers';

let storyMap: L.Map | null = null;

const shapes: GeofenceShape[] = [
  {
    id: 'depot',
    name: 'Depot',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [55.25, 25.19],
          [55.29, 25.19],
          [55.29, 25.22],
          [55.25, 25.22],
          [55.25, 25.19],
        ],
      ],
    },
  },
  { id: 'school', name: 'School zone', geometry: { type: 'Circle', center: [55.31, 25.2], radius: 900 } },
];

function GeofenceMap(args: GeofenceLayerProps) {
  const [mode, setMode] = useState<GeofenceShapeType | null>(args.drawMode ?? null);
  const [list, setList] = useState(args.shapes);
  return (
    <MapView
      center={DUBAI}
      zoom={13}
      tiles={{ kind: 'local' }}
      animate={false}
      size="lg"
      onReady={(m) => (storyMap = m)}
    >
      <GeofenceLayer
        {...args}
        shapes={list}
        drawMode={mode}
        onDrawModeChange={(m) => {
          setMode(m);
          args.onDrawModeChange?.(m);
        }}
        onShapeChange={(shape) => {
          setList((l) => l.map((s) => (s.id === shape.id ? shape : s)));
          args.onShapeChange?.(shape);
        }}
      />
    </MapView>
  );
}

const meta = {
  title: 'Map/GeofenceLayer',
  // Screenshot-stable: local tiles, animations off (instant pans), and every story waits after its
  // play function until the map is idle (tiles drawn, no pan or zoom running, no redraw pending).
  afterEach: async ({ canvasElement }) => waitForMapIdle(canvasElement),
  component: GeofenceLayer,
  args: { shapes, onSelect: fn(), onDrawComplete: fn(), onShapeChange: fn(), onDrawModeChange: fn() },
  render: (args) => <GeofenceMap {...args} />,
} satisfies Meta<GeofenceLayerProps>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Draw a polygon: pick the tool, click three points, Finish; the GeoJSON polygon is emitted. */
export const DrawPolygon: Story = {
  play: async ({ canvasElement, args }) => {
    const t = mapLabels(canvasElement);
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: t.drawPolygon }));
    await expect(args.onDrawModeChange).toHaveBeenCalledWith('polygon');
    const finish = canvas.getByRole('button', { name: t.finishDrawing });
    await expect(finish).toBeDisabled();
    const container = leafletContainer(canvasElement);
    clickMapAt(container, 100, 300);
    clickMapAt(container, 200, 120);
    clickMapAt(container, 320, 300);
    await waitFor(() => expect(finish).toBeEnabled());
    await userEvent.click(finish);
    await expect(args.onDrawComplete).toHaveBeenCalledTimes(1);
    const geometry = (args.onDrawComplete as ReturnType<typeof fn>).mock.calls[0]![0];
    await expect(geometry.type).toBe('Polygon');
    await expect(geometry.coordinates[0]).toHaveLength(4);
    await expect(geometry.coordinates[0][0]).toEqual(geometry.coordinates[0][3]);
    await expect(canvas.getByRole('button', { name: t.drawPolygon })).toBeInTheDocument();
  },
};

/** Draw a circle: centre click then radius click. */
export const DrawCircle: Story = {
  play: async ({ canvasElement, args }) => {
    const t = mapLabels(canvasElement);
    await userEvent.click(within(canvasElement).getByRole('button', { name: t.drawCircle }));
    const container = leafletContainer(canvasElement);
    clickMapAt(container, 200, 200);
    clickMapAt(container, 260, 200);
    await waitFor(() => expect(args.onDrawComplete).toHaveBeenCalledTimes(1));
    const geometry = (args.onDrawComplete as ReturnType<typeof fn>).mock.calls[0]![0];
    await expect(geometry.type).toBe('Circle');
    const expected = storyMap!.distance(
      storyMap!.containerPointToLatLng([200, 200]),
      storyMap!.containerPointToLatLng([260, 200]),
    );
    await expect(Math.abs(geometry.radius - expected)).toBeLessThan(expected * 0.01 + 1);
  },
};

/** Editing the depot: vertex handles can be nudged with the keyboard; the change is emitted as GeoJSON. */
export const EditPolygon: Story = {
  args: { editableId: 'depot' },
  play: async ({ canvasElement, args }) => {
    const t = mapLabels(canvasElement);
    const vertex = await within(canvasElement).findByRole('button', {
      name: t.vertex.replace('{index}', '1'),
    });
    vertex.focus();
    await userEvent.keyboard('{ArrowLeft}');
    await waitFor(() => expect(args.onShapeChange).toHaveBeenCalledTimes(1));
    const shape = (args.onShapeChange as ReturnType<typeof fn>).mock.calls[0]![0] as GeofenceShape;
    await expect(shape.id).toBe('depot');
    if (shape.geometry.type !== 'Polygon') throw new Error('expected a polygon');
    await expect(shape.geometry.coordinates[0][0]![0]).toBeLessThan(55.25);
    await expect(canvasElement.querySelectorAll('[data-slot="geofence-midpoint"]')).toHaveLength(4);
  },
};

/** Editing the circle: drag handles for centre and radius. */
export const EditCircle: Story = {
  args: { editableId: 'school' },
  play: async ({ canvasElement, args }) => {
    const t = mapLabels(canvasElement);
    const radius = await within(canvasElement).findByRole('button', { name: t.circleRadius });
    radius.focus();
    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(args.onShapeChange).toHaveBeenCalledTimes(1));
    const shape = (args.onShapeChange as ReturnType<typeof fn>).mock.calls[0]![0] as GeofenceShape;
    if (shape.geometry.type !== 'Circle') throw new Error('expected a circle');
    await expect(shape.geometry.radius).toBeGreaterThan(900);
  },
};

/** Read-only display (no toolbar). */
export const Display: Story = {
  args: { toolbar: false, selectedId: 'school' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('toolbar')).toBeNull();
    await waitFor(() => expect(canvasElement.querySelectorAll('path.leaflet-interactive')).toHaveLength(2));
  },
};
