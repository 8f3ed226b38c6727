import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { seededRandom } from '../map/fixtures';
import { format } from '../i18n/locale';
import { chartMessagesAr } from './messages.ar';
import { chartMessagesEn, type ChartMessages } from './messages.en';
import { BarChart, LineChart, type TimeSeriesChartProps } from './time-series-chart';

const t = (el: HTMLElement): ChartMessages =>
  el.ownerDocument.documentElement.lang === 'ar' ? chartMessagesAr : chartMessagesEn;

// One day of readings every 5 minutes, deterministic.
const start = Date.UTC(2026, 10, 20, 0, 0, 0);
const rnd = seededRandom(5);
const dayTimes = Array.from({ length: 288 }, (_, i) => start + i * 300_000);
let fuel = 92;
const fuelLevel = dayTimes.map((_, i) => {
  fuel -= rnd() * 0.3;
  if (i === 150) fuel = 95;
  return Math.round(fuel * 10) / 10;
});
const speed = dayTimes.map((_, i) =>
  i % 60 < 8 ? null : Math.round(40 + Math.sin(i / 9) * 30 + rnd() * 15),
);
const rpm = speed.map((s) => (s === null ? null : Math.round(800 + s * 28)));
const days = Array.from({ length: 30 }, (_, i) => start - (29 - i) * 86_400_000);
const distance = days.map(() => Math.round(80 + rnd() * 220));

const meta = {
  title: 'Data/Charts',
  component: LineChart,
  args: { title: 'Fuel level and speed', timestamps: dayTimes, series: [], timeZone: 'UTC' },
} satisfies Meta<TimeSeriesChartProps>;

export default meta;
type Story = StoryObj<typeof meta>;

const summaryRow = (el: HTMLElement, label: string) =>
  within(el.querySelector<HTMLElement>('[data-slot="chart-summary"]')!).getByRole('rowheader', {
    name: label,
  }).parentElement!;

export const FuelAndSpeed: Story = {
  args: {
    series: [
      { label: 'Fuel level', values: fuelLevel, unit: '%', tone: 'primary' },
      { label: 'Speed', values: speed, unit: 'km/h', tone: 'live' },
    ],
  },
  play: async ({ canvasElement }) => {
    const figure = within(canvasElement).getByRole('figure', { name: 'Fuel level and speed' });
    await waitFor(() => expect(figure.querySelector('canvas')).not.toBeNull());
    await expect(figure.querySelector('.uplot')).toHaveAttribute('aria-hidden', 'true');
    const row = summaryRow(canvasElement, 'Speed');
    const max = Math.max(...speed.filter((v): v is number => v !== null));
    await expect(row.textContent).toContain(`${max} km/h`);
    await expect(
      within(canvasElement).getByText(format(t(canvasElement).summary, { title: 'Fuel level and speed' })),
    ).toBeInTheDocument();
  },
};

export const EngineRpm: Story = {
  args: {
    title: 'Engine RPM',
    series: [{ label: 'RPM', values: rpm, unit: 'rpm', tone: 'warning' }],
    height: 180,
  },
};

/** Follows its container: the canvas is resized when the wrapper narrows. */
export const Resizes: Story = {
  args: { title: 'Speed', series: [{ label: 'Speed', values: speed, unit: 'km/h' }] },
  render: (args) => (
    <div data-testid="frame" style={{ width: 640 }}>
      <LineChart {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const frame = within(canvasElement).getByTestId('frame');
    const canvas = () => frame.querySelector('canvas')!;
    await waitFor(() => expect(canvas()).not.toBeNull());
    const before = canvas().getBoundingClientRect().width;
    frame.style.width = '420px';
    await waitFor(() => expect(canvas().getBoundingClientRect().width).toBeLessThan(before - 100));
  },
};

export const DailyDistance: Story = {
  render: (args) => <BarChart {...args} />,
  args: {
    title: 'Distance per day',
    timestamps: days,
    series: [{ label: 'Distance', values: distance, unit: 'km', tone: 'primary' }],
  },
  play: async ({ canvasElement }) => {
    const figure = within(canvasElement).getByRole('figure', { name: 'Distance per day' });
    await expect(figure).toHaveAttribute('data-kind', 'bar');
    await waitFor(() => expect(figure.querySelector('canvas')).not.toBeNull());
  },
};

export const Empty: Story = {
  args: { title: 'Fuel level', timestamps: [], series: [{ label: 'Fuel level', values: [] }] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(t(canvasElement).noData)).toBeInTheDocument();
  },
};

const speedSeries = [{ label: 'Speed', values: speed, unit: 'km/h', tone: 'live' as const }];

/** The route history's speed chart with its play head: the marker follows `markerTime` (replay, map hover). */
function PlaybackDemo() {
  const [at, setAt] = useState<number | null>(start + 6 * 3_600_000);
  return (
    <div>
      <button type="button" onClick={() => setAt((t) => (t ?? start) + 6 * 3_600_000)}>
        Play on
      </button>
      <button type="button" onClick={() => setAt(null)}>
        Stop
      </button>
      <LineChart
        title="Speed"
        timestamps={dayTimes}
        series={speedSeries}
        height={180}
        timeZone="UTC"
        markerTime={at}
      />
    </div>
  );
}

/** The playback cursor: placed at its time on the axis, moves with it, hidden without one. */
export const PlaybackMarker: Story = {
  // Behaviour (the marker moves); its picture is the charts above.
  tags: ['skip-visual'],
  render: () => <PlaybackDemo />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const marker = () => canvasElement.querySelector<HTMLElement>('[data-slot="chart-marker"]')!;
    await waitFor(() => expect(marker()).not.toBeNull());
    const plot = canvasElement.querySelector<HTMLElement>('.u-over')!;
    const x = () => marker().getBoundingClientRect().left - plot.getBoundingClientRect().left;
    const over = {
      get clientWidth() {
        return plot.clientWidth;
      },
    };
    // 06:00 of a day plotted from 00:00 to 23:55: a quarter of the way along the time axis.
    await waitFor(() => expect(marker()).toBeVisible());
    await expect(marker()).toHaveAttribute('data-time', String(start + 6 * 3_600_000));
    const quarter = x() / over.clientWidth;
    await expect(quarter).toBeGreaterThan(0.22);
    await expect(quarter).toBeLessThan(0.28);
    await userEvent.click(canvas.getByRole('button', { name: 'Play on' }));
    // The same plot moves its marker (a new play-head time does not rebuild the chart).
    await expect(plot.isConnected).toBe(true);
    await waitFor(() => expect(marker()).toHaveAttribute('data-time', String(start + 12 * 3_600_000)));
    const half = x() / over.clientWidth;
    await expect(half).toBeGreaterThan(0.47);
    await expect(half).toBeLessThan(0.53);
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(marker()).not.toBeVisible());
  },
};
