/**
 * DataTable benchmark page: 10,000 rows, virtualised. Sorting is timed around a synchronous click
 * (flushSync: sort + React commit); scrolling moves the viewport every animation frame and records
 * frame intervals and the script time of each scroll.
 */
import type { ColumnDef } from '@tanstack/react-table';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { UiProvider } from '../src/provider';
import { DataTable } from '../src/data-table/data-table';
import { demoVehicleRows, type DemoVehicleRow } from '../src/data-table/fixtures';
import { afterPaint, fail, nextFrame, report, stats, withLongTasks } from './measure';
import './bench.css';

const COUNT = 10_000;
const rows = demoVehicleRows(COUNT);
const columns: ColumnDef<DemoVehicleRow, unknown>[] = [
  { accessorKey: 'plate', header: 'Plate', meta: { ltr: true } },
  { accessorKey: 'type', header: 'Type' },
  { accessorKey: 'driver', header: 'Driver' },
  { accessorKey: 'status', header: 'Status' },
  {
    accessorKey: 'speed',
    header: 'Speed',
    meta: { numeric: true },
    cell: ({ getValue }) => (getValue() as number).toFixed(1),
  },
  { accessorKey: 'odometer', header: 'Odometer', meta: { numeric: true } },
  { accessorKey: 'imei', header: 'IMEI', meta: { ltr: true } },
  { accessorKey: 'updatedAt', header: 'Last update', meta: { ltr: true } },
];

async function run() {
  createRoot(document.getElementById('root')!).render(
    <UiProvider locale="en">
      <div style={{ width: 1280 }}>
        <DataTable
          caption="Vehicles"
          columns={columns}
          data={rows}
          getRowId={(r) => r.uuid}
          virtualize
          height={640}
        />
      </div>
    </UiProvider>,
  );
  for (let i = 0; i < 100 && !document.querySelector('[data-slot="data-table-row"]'); i++) await nextFrame();
  const viewport = document.querySelector<HTMLElement>('[data-slot="data-table-viewport"]')!;
  const button = (name: string) =>
    document.querySelector<HTMLButtonElement>(
      `th[data-column="${name}"] button[data-slot="data-table-sort"]`,
    )!;
  await nextFrame();

  // Sorting: each click is one synchronous sort + render (asc, desc, off for each column).
  const sortSamples: Record<string, number[]> = {};
  const sortLong: number[] = [];
  for (const column of ['speed', 'plate', 'driver', 'updatedAt']) {
    sortSamples[column] = [];
    for (let i = 0; i < 3; i++) {
      const r = await withLongTasks(async () => {
        performance.mark(`bench:sort-${column}-${i}:start`);
        performance.mark(`bench:sortjs-${column}-${i}:start`);
        if (window.__benchProfile) console.profile(`sort-${column}-${i}`);
        const t0 = performance.now();
        flushSync(() => button(column).click());
        const ms = performance.now() - t0;
        performance.mark(`bench:sortjs-${column}-${i}:end`);
        await afterPaint();
        if (window.__benchProfile) console.profileEnd(`sort-${column}-${i}`);
        performance.mark(`bench:sort-${column}-${i}:end`);
        return ms;
      });
      if (i < 2) sortSamples[column].push(r.result); // asc and desc; the third click clears the sort
      sortLong.push(...r.longTasks);
      await nextFrame();
    }
  }
  // Check that the sort really happened: ascending speed puts the minimum first.
  flushSync(() => button('speed').click());
  const firstSpeed = Number(document.querySelector('td[data-column="speed"]')?.textContent);
  const minSpeed = Math.min(...rows.map((r) => r.speed));
  if (firstSpeed !== minSpeed) throw new Error(`sort check failed: first ${firstSpeed}, min ${minSpeed}`);
  await nextFrame();

  // Scrolling: 40 px per frame for 300 frames (2,400 px/s), then a fling of 400 px per frame.
  const scrollScript: number[] = [];
  const frameIntervals: number[] = [];
  // Capture on the document runs before the virtualizer's own listener on the viewport, the
  // target-phase listener added here runs after it: the gap is the synchronous re-render of the
  // visible rows, plus the forced layout of the new rows.
  let scrollStart = 0;
  document.addEventListener('scroll', () => (scrollStart = performance.now()), {
    capture: true,
    passive: true,
  });
  viewport.addEventListener(
    'scroll',
    () => {
      void viewport.querySelector('tbody')?.offsetHeight;
      scrollScript.push(performance.now() - scrollStart);
    },
    { passive: true },
  );
  if (window.__benchProfile) console.profile('scroll');
  const scrolled = await withLongTasks(async () => {
    let last = await nextFrame();
    for (let f = 0; f < 360; f++) {
      performance.mark(`bench:frame-${f}:start`);
      viewport.scrollTop += f < 300 ? 40 : 400;
      const now = await nextFrame();
      performance.mark(`bench:frame-${f}:end`);
      frameIntervals.push(now - last);
      last = now;
    }
    return viewport.scrollTop;
  });
  if (window.__benchProfile) console.profileEnd('scroll');
  const renderedRows = document.querySelectorAll('[data-slot="data-table-row"]').length;
  const budget = 1000 / 60;
  const dropped = frameIntervals.filter((d) => d > budget * 1.5).length;

  report({
    rows: COUNT,
    renderedRows,
    sortMs: Object.fromEntries(Object.entries(sortSamples).map(([k, v]) => [k, stats(v)])),
    sortMax: Math.max(...Object.values(sortSamples).flat()),
    sortLongTasks: sortLong,
    scroll: {
      frames: frameIntervals.length,
      finalScrollTop: scrolled.result,
      frameMs: stats(frameIntervals),
      scrollScriptMs: stats(scrollScript),
      droppedFrames: dropped,
      longTasks: scrolled.longTasks,
    },
  });
}

run().catch(fail);
