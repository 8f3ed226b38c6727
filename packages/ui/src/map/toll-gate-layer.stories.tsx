import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor } from 'storybook/test';
import { DUBAI } from './fixtures';
import { MapView } from './map-view';
import { waitForMapIdle } from './story-helpers';
import { TollGateLayer, type TollGate, type TollGateLayerProps } from './toll-gate-layer';

const gates: TollGate[] = [
  {
    id: 'g1',
    name: 'Al Garhoud Bridge',
    line: [
      [25.226, 55.337],
      [25.232, 55.343],
    ],
  },
  {
    id: 'g2',
    name: 'Al Maktoum Bridge',
    line: [
      [25.245, 55.318],
      [25.249, 55.324],
    ],
  },
  {
    id: 'g3',
    name: 'Al Barsha',
    line: [
      [25.118, 55.196],
      [25.114, 55.203],
    ],
  },
];

const meta = {
  title: 'Map/TollGateLayer',
  // Screenshot-stable: local tiles, animations off (instant pans), and every story waits after its
  // play function until the map is idle (tiles drawn, no pan or zoom running, no redraw pending).
  afterEach: async ({ canvasElement }) => waitForMapIdle(canvasElement),
  component: TollGateLayer,
  args: { gates, onSelect: fn() },
  render: (args) => (
    <MapView
      center={[DUBAI[0] - 0.02, DUBAI[1]]}
      zoom={11}
      tiles={{ kind: 'local' }}
      animate={false}
      size="lg"
    >
      <TollGateLayer {...args} />
    </MapView>
  ),
} satisfies Meta<TollGateLayerProps>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Salik gates as thick lines with their names; clicking a gate selects it. */
export const Gates: Story = {
  play: async ({ canvasElement, args }) => {
    await waitFor(() => expect(canvasElement.querySelectorAll('[data-slot="toll-gate"]')).toHaveLength(3));
    await expect(canvasElement.querySelectorAll('.leaflet-tooltip')).toHaveLength(3);
    const gate = canvasElement.querySelector<SVGPathElement>('[data-gate-id="g2"]')!;
    gate.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await expect(args.onSelect).toHaveBeenCalledWith('g2');
    const third = canvasElement.querySelector<SVGPathElement>('[data-gate-id="g3"]')!;
    third.focus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onSelect).toHaveBeenCalledWith('g3');
  },
};

export const Selected: Story = { args: { selectedId: 'g1', showLabels: false } };
