import type { Meta, StoryObj } from '@storybook/react-vite';
import type L from 'leaflet';
import { useEffect, useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { DUBAI } from './fixtures';
import { FollowVehicle } from './follow-vehicle';
import { MapView } from './map-view';
import { leafletContainer, mapLabels, waitForMapIdle } from './story-helpers';
import { VehicleLayer } from './vehicle-layer';
import type { VehicleMarker } from './vehicle-index';

// The play functions move the vehicle through this setter, as live updates would.
let storyMap: L.Map | null = null;
const vehicle: { moveTo: ((lat: number, lng: number) => void) | null } = { moveTo: null };

function FollowedVehicle({ onFollowingChange }: { onFollowingChange: (following: boolean) => void }) {
  const [at, setAt] = useState<[number, number]>(DUBAI);
  useEffect(() => {
    vehicle.moveTo = (lat, lng) => setAt([lat, lng]);
  }, []);
  const marker: VehicleMarker = {
    id: 'v1',
    lat: at[0],
    lng: at[1],
    kind: 'bus',
    tone: 'live',
    label: 'C 10074',
  };
  return (
    <MapView
      center={DUBAI}
      zoom={15}
      tiles={{ kind: 'local' }}
      animate={false}
      size="md"
      onReady={(m) => (storyMap = m)}
    >
      <VehicleLayer vehicles={[marker]} selectedId={null} clusterMaxZoom={-1} />
      <FollowVehicle
        position={{ lat: at[0], lng: at[1] }}
        name="C 10074"
        onFollowingChange={onFollowingChange}
      />
    </MapView>
  );
}

const meta = {
  title: 'Map/FollowVehicle',
  component: FollowedVehicle,
  args: { onFollowingChange: fn() },
} satisfies Meta<typeof FollowedVehicle>;

export default meta;
type Story = StoryObj<typeof meta>;

const near = (map: L.Map, lat: number, lng: number) => {
  const c = map.getCenter();
  // Within a pixel at zoom 15 (Leaflet pans to whole pixels).
  return Math.abs(c.lat - lat) < 1e-4 && Math.abs(c.lng - lng) < 1e-4;
};

/**
 * Drags the map with the mouse, as a user does. Every event starts on the map (Leaflet's Draggable
 * listens on the document, and marks the move's target element, which must be an element).
 */
async function dragMap(container: HTMLElement, dx: number, dy: number) {
  const rect = container.getBoundingClientRect();
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const at = (type: string, cx: number, cy: number) =>
    container.dispatchEvent(
      new MouseEvent(type, {
        bubbles: true,
        cancelable: true,
        clientX: cx,
        clientY: cy,
        button: 0,
        buttons: 1,
        view: window,
      }),
    );
  at('mousedown', x, y);
  for (let i = 1; i <= 6; i++) {
    at('mousemove', x + (dx * i) / 6, y + (dy * i) / 6);
    await new Promise((r) => requestAnimationFrame(r));
  }
  at('mouseup', x + dx, y + dy);
}

/**
 * Follows the vehicle as it moves; a drag stops following (the map stays put while the vehicle moves
 * on); the "Follow C 10074" toggle, pressed from the keyboard, turns it back on and recentres.
 */
export const FollowDragAndResume: Story = {
  // Interaction test only: the screenshot run pins the clock, and Leaflet's pan animation measures
  // its progress with Date.now(), so the recentring pan would never end there. The other two stories
  // give the screenshots of the control, pressed and not.
  tags: ['skip-visual'],
  play: async ({ canvasElement, args }) => {
    const text = mapLabels(canvasElement);
    const container = leafletContainer(canvasElement);
    await waitForMapIdle(canvasElement);
    const map = storyMap!;
    const button = within(canvasElement).getByRole('button', {
      name: text.followNamed.replace('{name}', 'C 10074'),
    });
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(container).toHaveAttribute('data-follow', 'on');

    // A new fix: the map goes with it.
    vehicle.moveTo!(25.21, 55.28);
    await waitFor(() => expect(near(map, 25.21, 55.28)).toBe(true));
    await expect(container).toHaveAttribute('data-centre', '25.21,55.28');

    // The user drags the map away: following stops and the map stays where they left it.
    await dragMap(container, 120, 60);
    await waitFor(() => expect(container).toHaveAttribute('data-follow', 'off'));
    await expect(button).toHaveAttribute('aria-pressed', 'false');
    await expect(args.onFollowingChange).toHaveBeenLastCalledWith(false);
    await waitForMapIdle(canvasElement);
    const held = map.getCenter();
    vehicle.moveTo!(25.215, 55.29);
    await waitForMapIdle(canvasElement);
    await expect(near(map, held.lat, held.lng)).toBe(true);

    // Keyboard: the toggle turns following on again and the map recentres on the vehicle at once.
    button.focus();
    await userEvent.keyboard('{Enter}');
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(args.onFollowingChange).toHaveBeenLastCalledWith(true);
    await waitFor(() => expect(near(map, 25.215, 55.29)).toBe(true));
    await expect(container).toHaveAttribute('data-follow', 'on');
    await waitForMapIdle(canvasElement);
  },
};

/** Arrow keys on the focused map pan it (Leaflet's keyboard handler): that stops following too. */
export const KeyboardPanStops: Story = {
  play: async ({ canvasElement }) => {
    const container = leafletContainer(canvasElement);
    await waitForMapIdle(canvasElement);
    container.focus();
    await userEvent.keyboard('{ArrowUp}');
    await waitFor(() => expect(container).toHaveAttribute('data-follow', 'off'));
    await waitForMapIdle(canvasElement);
  },
};

/** Arabic: the toggle's name and text are Arabic, the plate stays as written. */
export const Arabic: Story = {
  globals: { mode: 'light-ar' },
  play: async ({ canvasElement }) => {
    await waitForMapIdle(canvasElement);
    await expect(within(canvasElement).getByRole('button', { name: 'تتبّع C 10074' })).toBeVisible();
  },
};
