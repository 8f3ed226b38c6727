/**
 * A small SVG bar chart for categorical data (tyre positions on the wheel dashboard), which the kit's
 * time-series charts do not cover; time series use @fleet/ui's LineChart/BarChart. Colours are tokens. The plot is pinned LTR (time runs left to right in
 * both languages, like the map); labels stay in the page language.
 */
import { useId } from 'react';

export interface ChartPoint {
  x: number;
  y: number;
}

export function chartPath(
  points: readonly ChartPoint[],
  width: number,
  height: number,
): { d: string; min: number; max: number } {
  if (points.length === 0) return { d: '', min: 0, max: 0 };
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const min = Math.min(0, ...ys);
  const max = Math.max(...ys);
  const sx = (x: number) => (maxX === minX ? width / 2 : ((x - minX) / (maxX - minX)) * width);
  const sy = (y: number) => (max === min ? height / 2 : height - ((y - min) / (max - min)) * height);
  const d = points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`)
    .join(' ');
  return { d, min, max };
}

export function SimpleChart({
  title,
  points,
  kind = 'line',
  formatY = (n) => n.toLocaleString(),
}: {
  title: string;
  points: readonly ChartPoint[];
  kind?: 'line' | 'bar';
  formatY?: (n: number) => string;
}) {
  const id = useId();
  const width = 600;
  const height = 160;
  const { d, min, max } = chartPath(points, width, height);
  const barWidth = points.length ? Math.max(2, width / points.length - 4) : 0;
  return (
    <figure data-slot="chart" data-kind={kind} className="rounded-lg border border-border bg-surface p-3">
      <figcaption id={id} className="mb-2 text-sm font-medium text-foreground">
        {title}
      </figcaption>
      <div dir="ltr" className="flex gap-2">
        <div className="flex flex-col justify-between text-end text-xs tabular-nums text-foreground-muted">
          <span>{formatY(max)}</span>
          <span>{formatY(min)}</span>
        </div>
        <svg
          role="img"
          aria-labelledby={id}
          viewBox={`0 0 ${width} ${height}`}
          className="h-40 w-full text-primary"
          preserveAspectRatio="none"
        >
          <line x1="0" y1={height} x2={width} y2={height} className="stroke-border" strokeWidth="1" />
          {kind === 'line' ? (
            <path d={d} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
          ) : (
            points.map((p, i) => {
              const h = max === min ? 0 : ((p.y - min) / (max - min)) * height;
              return (
                <rect
                  key={i}
                  x={i * (width / points.length) + 2}
                  y={height - h}
                  width={barWidth}
                  height={h}
                  fill="currentColor"
                  opacity="0.8"
                />
              );
            })
          )}
        </svg>
      </div>
    </figure>
  );
}
