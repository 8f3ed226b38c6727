import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';

const WIDTH_KEY = 'fleet.live.listWidth';
const MIN = 260;
const MAX = 560;

function savedWidth(): number {
  try {
    const n = Number(localStorage.getItem(WIDTH_KEY));
    return Number.isFinite(n) && n >= MIN && n <= MAX ? n : 340;
  } catch {
    return 340;
  }
}

/**
 * A pane at the inline start with a drag handle at its inline end (a separator: pointer drag, arrow
 * keys, Home/End), its width remembered. Dragging follows the reading direction: in Arabic the pane is
 * on the right and grows to the left.
 */
export function ResizablePane({ label, children }: { label: string; children: ReactNode }) {
  const [width, setWidth] = useState(savedWidth);
  const drag = useRef<{ x: number; width: number; rtl: boolean } | null>(null);
  const set = (next: number) => {
    const w = Math.round(Math.max(MIN, Math.min(MAX, next)));
    setWidth(w);
    try {
      localStorage.setItem(WIDTH_KEY, String(w));
    } catch {
      // not remembered
    }
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, width, rtl: getComputedStyle(e.currentTarget).direction === 'rtl' };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    set(d.width + (d.rtl ? -dx : dx));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const rtl = getComputedStyle(e.currentTarget).direction === 'rtl';
    const grow = rtl ? 'ArrowLeft' : 'ArrowRight';
    const shrink = rtl ? 'ArrowRight' : 'ArrowLeft';
    if (e.key === grow) set(width + 20);
    else if (e.key === shrink) set(width - 20);
    else if (e.key === 'Home') set(MIN);
    else if (e.key === 'End') set(MAX);
    else return;
    e.preventDefault();
  };
  return (
    <div className="hidden min-h-0 shrink-0 lg:flex" style={{ width }} data-testid="live-console-pane">
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">{children}</div>
      {/* A focusable separator with a value is the ARIA window-splitter widget; the lint rule sees only
          the static role. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-valuemin={MIN}
        aria-valuemax={MAX}
        aria-valuenow={width}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the splitter takes arrow keys
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onKeyDown={onKeyDown}
        className="mx-1 w-1.5 shrink-0 cursor-col-resize rounded-full bg-border hover:bg-border-strong focus-visible:outline-2 focus-visible:outline-focus-ring"
      />
    </div>
  );
}
