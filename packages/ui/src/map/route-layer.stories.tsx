import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, fn, userEvent, waitFor, within } from 'storybook/test';
import { DUBAI, demoRoute } from './fixtures';
import { MapView } from './map-view';
import { RouteLayer, RoutePlayback, type RouteLayerProps } from './route-layer';
import { mapLabels, waitForMapIdle } from './story-helpers';

const route = demoRoute(120);

const meta = {
  title: 'Map/RouteLayer',
  // Screenshot-stable: local tiles, animations off (instant pans), and every story waits after its
  // play function until the map is idle (tiles drawn, no pan or zoom running, no redraw pending).
  afterEach: async ({ canvasElement }) => waitForMapIdle(canvasElement),
  component: RouteLayer,
  args: { points: route, timeZone: 'UTC', onTimeChange: fn(), onHoverTime: fn() },
  render: (args) => (
    <MapView center={DUBAI} zoom={12} tiles={{ kind: 'local' }} animate={false} size="lg">
      <RouteLayer {...args} />
    </MapView>
  ),
} satisfies Meta<RouteLayerProps>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Polyline, start/end dots and the playback bar: play, pause, speed, scrubber and time label. */
export const Playback: Story = {
  play: async ({ canvasElement, args }) => {
    const t = mapLabels(canvasElement);
    const canvas = within(canvasElement);
    const bar = canvas.getByRole('group', { name: t.routePlayback });
    await expect(within(bar).getByText('06:00:00')).toBeInTheDocument();
    await userEvent.selectOptions(within(bar).getByLabelText(t.playbackSpeed), '300');
    await userEvent.click(within(bar).getByRole('button', { name: t.play }));
    await expect(bar).toHaveAttribute('data-state', 'playing');
    await waitFor(() => expect(args.onTimeChange).toHaveBeenCalled());
    await userEvent.click(within(bar).getByRole('button', { name: t.pause }));
    await expect(bar).toHaveAttribute('data-state', 'paused');
    const scrubber = within(bar).getByRole('slider', { name: t.playbackPosition });
    fireEvent.change(scrubber, { target: { value: String(route[60]!.time) } });
    await expect(within(bar).getByText('06:30:00')).toBeInTheDocument();
    await expect(scrubber).toHaveAttribute('aria-valuetext', '06:30:00');
  },
};

/**
 * Hovering the route line shows the nearest point's time and speed; a click (a tap on a phone) also
 * moves the play head there.
 */
export const HoverShowsTimeAndSpeed: Story = {
  play: async ({ canvasElement, args }) => {
    const line = await waitFor(() => {
      const el = canvasElement.querySelector<SVGPathElement>(
        '.leaflet-overlay-pane path.leaflet-interactive',
      );
      if (!el) throw new Error('route line not drawn yet');
      return el;
    });
    const mid = line.getPointAtLength(line.getTotalLength() / 2);
    const m = line.getScreenCTM()!;
    const at = { clientX: mid.x * m.a + m.e, clientY: mid.y * m.d + m.f };
    fireEvent.mouseMove(line, at);
    const tip = await waitFor(() => {
      const el = canvasElement.querySelector('[data-slot="route-point-tooltip"]');
      if (!el) throw new Error('no tooltip');
      return el;
    });
    const rtl = document.documentElement.dir === 'rtl';
    await expect(tip.textContent).toMatch(rtl ? /كم\/س/ : /km\/h/);
    await expect(tip.textContent).toMatch(/\d{2}:\d{2}:\d{2}/);
    // The hovered point's time is told to the page (the route history's chart cursor follows it).
    await expect(args.onHoverTime).toHaveBeenLastCalledWith(expect.any(Number));
    fireEvent.click(line, at);
    await waitFor(() => expect(args.onTimeChange).toHaveBeenCalled());
  },
};

/** No valid location: the spec's message instead of controls. */
export const NoLocations: Story = {
  args: { points: [] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(mapLabels(canvasElement).noRoute)).toBeInTheDocument();
  },
};

/** The controls on their own (e.g. below a map or in a drawer). */
export const ControlsOnly: Story = {
  render: () => (
    <RoutePlayback
      start={route[0]!.time}
      end={route[route.length - 1]!.time}
      time={route[40]!.time}
      playing={false}
      speed={60}
      timeZone="UTC"
      onPlayingChange={() => {}}
      onSpeedChange={() => {}}
      onTimeChange={() => {}}
    />
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('06:20:00')).toBeInTheDocument();
  },
};
