import { intlLocale } from '@fleet/core';
import { cva } from 'class-variance-authority';
import L from 'leaflet';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { format } from '../i18n/locale';
import { cn } from '../lib/cn';
import { useUi } from '../provider';
import { useMapContext } from './map-context';
import type { MapMessages } from './messages.en';
import {
  advancePlayback,
  defaultPlaybackSpeed,
  normalizeRoute,
  playbackSpeeds,
  positionAt,
  startPlayback,
  type PlaybackState,
  type RoutePoint,
} from './route-playback';
import { useMapMessages } from './use-map-messages';

export const routePlaybackVariants = cva(
  'flex flex-wrap items-center gap-3 rounded-lg border border-border bg-surface-raised px-3 py-2 text-sm text-foreground shadow-md',
);

const controlButton =
  'inline-flex size-9 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring disabled:opacity-50';

export interface RoutePlaybackProps {
  /** Route start and end (epoch ms). */
  start: number;
  end: number;
  /** Current play head (epoch ms). */
  time: number;
  playing: boolean;
  speed: number;
  onPlayingChange: (playing: boolean) => void;
  onSpeedChange: (speed: number) => void;
  onTimeChange: (time: number) => void;
  /** Formats the time label; defaults to HH:mm:ss in the provider locale (and `timeZone`). */
  formatTime?: (time: number) => string;
  timeZone?: string;
  labels?: Partial<MapMessages>;
  className?: string;
}

/** Route playback controls: play/pause, speed, a scrubber and the current time (an LTR-isolated label). */
export function RoutePlayback({
  start,
  end,
  time,
  playing,
  speed,
  onPlayingChange,
  onSpeedChange,
  onTimeChange,
  formatTime,
  timeZone,
  labels,
  className,
}: RoutePlaybackProps) {
  const { localeTag } = useUi();
  const messages = useMapMessages(labels);
  const speedId = useId();
  const fmt = useMemo(() => {
    if (formatTime) return formatTime;
    const f = new Intl.DateTimeFormat(intlLocale(localeTag), {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      numberingSystem: 'latn',
      ...(timeZone ? { timeZone } : {}),
    });
    return (t: number) => f.format(t);
  }, [formatTime, localeTag, timeZone]);
  const label = fmt(time);
  const empty = end <= start;
  return (
    <div
      role="group"
      aria-label={messages.routePlayback}
      data-slot="route-playback"
      data-state={playing ? 'playing' : 'paused'}
      className={cn(routePlaybackVariants(), className)}
    >
      <button
        type="button"
        data-slot="route-playback-toggle"
        className={controlButton}
        aria-label={playing ? messages.pause : messages.play}
        disabled={empty}
        onClick={() => onPlayingChange(!playing)}
      >
        {playing ? (
          <svg viewBox="0 0 24 24" className="size-4" fill="currentColor" aria-hidden="true">
            <rect x="6" y="5" width="4" height="14" rx="1" />
            <rect x="14" y="5" width="4" height="14" rx="1" />
          </svg>
        ) : (
          <svg viewBox="0 0 24 24" className="size-4 rtl:-scale-x-100" fill="currentColor" aria-hidden="true">
            <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10-6.5a1 1 0 0 0 0-1.72l-10-6.5A1 1 0 0 0 8 5.5z" />
          </svg>
        )}
      </button>
      <label htmlFor={speedId} className="sr-only">
        {messages.playbackSpeed}
      </label>
      <select
        id={speedId}
        data-slot="route-playback-speed"
        value={speed}
        onChange={(e) => onSpeedChange(Number(e.target.value))}
        className="h-9 rounded-md border border-border-strong bg-surface px-2 text-foreground focus-visible:outline-2 focus-visible:outline-focus-ring"
      >
        {playbackSpeeds.map((s) => (
          <option key={s} value={s}>
            {format(messages.speedOption, { speed: s })}
          </option>
        ))}
      </select>
      <input
        type="range"
        data-slot="route-playback-scrubber"
        aria-label={messages.playbackPosition}
        aria-valuetext={label}
        min={start}
        max={Math.max(start, end)}
        step={1000}
        value={time}
        disabled={empty}
        onChange={(e) => onTimeChange(Number(e.target.value))}
        className="min-w-32 flex-1 accent-primary"
      />
      <bdi dir="ltr" data-slot="route-playback-time" className="tabular-nums text-foreground-muted">
        {label}
      </bdi>
    </div>
  );
}

/** Screen pixels kept free around a fitted route (beyond the playback bar). */
const FIT_PADDING = 32;

export interface RouteLayerProps {
  /** Location records of the route (invalid ones are dropped, the rest sorted by time). */
  points: readonly RoutePoint[];
  /** Show the playback controls over the map (default true). */
  controls?: boolean;
  /** Fit the map to the route when the points change (default true). */
  fitBounds?: boolean;
  initialSpeed?: number;
  /** Controlled play head; omit to let the layer keep it. */
  time?: number;
  onTimeChange?: (time: number) => void;
  /**
   * The time of the recorded point under the pointer on the line (null when the pointer leaves it):
   * lets a page show that moment elsewhere (the route history's speed chart draws its cursor there).
   */
  onHoverTime?: (time: number | null) => void;
  timeZone?: string;
  formatTime?: (time: number) => string;
  labels?: Partial<MapMessages>;
}

/**
 * A route as a polyline in the primary colour, start and end dots, and a play head that moves along
 * it with play/pause, speed and scrubbing. With no valid points it shows the spec's
 * "No location data available for this vehicle".
 */
export function RouteLayer({
  points,
  controls = true,
  fitBounds = true,
  initialSpeed = defaultPlaybackSpeed,
  time: controlledTime,
  onTimeChange,
  onHoverTime,
  timeZone,
  formatTime,
  labels,
}: RouteLayerProps) {
  const { map, theme, overlay } = useMapContext();
  const messages = useMapMessages(labels);
  const route = useMemo(() => normalizeRoute(points).points, [points]);
  const range = useMemo(
    () => ({ start: route[0]?.time ?? 0, end: route[route.length - 1]?.time ?? 0 }),
    [route],
  );
  const [state, setState] = useState<PlaybackState>({
    time: range.start,
    playing: false,
    speed: initialSpeed,
  });
  const time = controlledTime ?? state.time;
  const stateRef = useRef(state);
  useLayoutEffect(() => {
    stateRef.current = state;
  });
  const onTimeChangeRef = useRef(onTimeChange);
  const onHoverTimeRef = useRef(onHoverTime);
  useLayoutEffect(() => {
    onTimeChangeRef.current = onTimeChange;
    onHoverTimeRef.current = onHoverTime;
  });

  const setTime = useCallback((t: number) => {
    setState((s) => ({ ...s, time: t }));
    onTimeChangeRef.current?.(t);
  }, []);

  // Reset the play head when another route comes in.
  useEffect(() => {
    setState((s) => ({ ...s, time: range.start, playing: false }));
  }, [range.start, range.end]);

  // Time label of the hover tooltip (the same clock as the playback bar).
  const { localeTag, dir } = useUi();
  const dirRef = useRef(dir);
  dirRef.current = dir;
  const pointText = useMemo(() => {
    const clock = new Intl.DateTimeFormat(intlLocale(localeTag), {
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      numberingSystem: 'latn',
      ...(timeZone ? { timeZone } : {}),
    });
    const fmt = formatTime ?? ((t: number) => clock.format(t));
    const number = new Intl.NumberFormat(intlLocale(localeTag), { maximumFractionDigits: 0 });
    return (p: { time: number; speed?: number | null }) =>
      // First-strong isolates keep the date, clock and number whole inside Arabic text.
      format(messages.routePoint, {
        time: `\u2068${fmt(p.time)}\u2069`,
        speed: p.speed == null ? '—' : `\u2068${number.format(p.speed)}\u2069`,
      });
  }, [localeTag, timeZone, formatTime, messages.routePoint]);
  const pointTextRef = useRef(pointText);
  useLayoutEffect(() => {
    pointTextRef.current = pointText;
  });

  // Polyline and end dots. Hovering the line (or tapping it) shows the time and speed of the nearest
  // recorded point; a tap or click also moves the play head there (and tells onTimeChange).
  useEffect(() => {
    if (route.length === 0) return;
    const latlngs = route.map((p) => [p.lat, p.lng] as [number, number]);
    const hit = L.polyline(latlngs, { color: theme.surface, weight: 7, opacity: 0.9, interactive: true });
    const tooltip = L.tooltip({ direction: 'top', offset: [0, -8], className: 'fl-route-tooltip' });
    const nearest = (at: L.LatLng) => {
      const target = map.latLngToLayerPoint(at);
      let best = 0;
      let bestDistance = Infinity;
      for (let i = 0; i < route.length; i++) {
        const d = map.latLngToLayerPoint([route[i]!.lat, route[i]!.lng]).distanceTo(target);
        if (d < bestDistance) {
          bestDistance = d;
          best = i;
        }
      }
      return route[best]!;
    };
    const show = (e: L.LeafletMouseEvent) => {
      const p = nearest(e.latlng);
      tooltip.setLatLng([p.lat, p.lng]).setContent(pointTextRef.current(p));
      if (!map.hasLayer(tooltip)) tooltip.addTo(map);
      tooltip.getElement()?.setAttribute('data-slot', 'route-point-tooltip');
      // The map container is pinned LTR; the tooltip's text reads in the page's direction.
      tooltip.getElement()?.setAttribute('dir', dirRef.current);
      return p;
    };
    hit.on('mousemove', (e: L.LeafletMouseEvent) => onHoverTimeRef.current?.(show(e).time));
    hit.on('mouseout', () => {
      tooltip.remove();
      onHoverTimeRef.current?.(null);
    });
    hit.on('click', (e: L.LeafletMouseEvent) => {
      const p = show(e);
      setTime(p.time);
    });
    const group = L.layerGroup([
      hit,
      L.polyline(latlngs, { color: theme.primary, weight: 4, interactive: false }),
      L.circleMarker(latlngs[0]!, {
        radius: 6,
        color: theme.surface,
        weight: 2,
        fillColor: theme.tones.live,
        fillOpacity: 1,
        interactive: false,
      }),
      L.circleMarker(latlngs[latlngs.length - 1]!, {
        radius: 6,
        color: theme.surface,
        weight: 2,
        fillColor: theme.danger,
        fillOpacity: 1,
        interactive: false,
      }),
    ]).addTo(map);
    return () => {
      group.remove();
      tooltip.remove();
    };
  }, [map, route, theme, setTime]);

  // Fit the whole route, clear of the playback bar over the bottom of the map (it is in the DOM by
  // now: effects run after the portal below is committed). A map without room for it yet (created
  // in a hidden container, whose size Leaflet reads as 0 x 0) would get a NaN view from the
  // padding, so the fit then waits for the map's next resize.
  const controlsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!fitBounds || route.length === 0) return;
    const bounds = L.latLngBounds(route.map((p) => [p.lat, p.lng] as [number, number]));
    const fit = () => {
      const bar = Math.ceil(controlsRef.current?.getBoundingClientRect().height ?? 0);
      const size = map.getSize();
      if (size.x <= 2 * FIT_PADDING || size.y <= 2 * FIT_PADDING + bar) return false;
      map.fitBounds(bounds, {
        paddingTopLeft: [FIT_PADDING, FIT_PADDING],
        paddingBottomRight: [FIT_PADDING, FIT_PADDING + bar],
        animate: false,
      });
      return true;
    };
    if (fit()) return;
    const onResize = () => {
      if (fit()) map.off('resize', onResize);
    };
    map.on('resize', onResize);
    return () => {
      map.off('resize', onResize);
    };
  }, [map, route, fitBounds]);

  // Play head marker.
  const head = useRef<L.CircleMarker | null>(null);
  useEffect(() => {
    if (route.length === 0) return;
    const marker = L.circleMarker([route[0]!.lat, route[0]!.lng], {
      radius: 8,
      color: theme.surface,
      weight: 3,
      fillColor: theme.primary,
      fillOpacity: 1,
      interactive: false,
    }).addTo(map);
    head.current = marker;
    return () => {
      marker.remove();
      head.current = null;
    };
  }, [map, route, theme]);

  useEffect(() => {
    const pos = positionAt(route, time);
    if (pos && head.current) head.current.setLatLng([pos.lat, pos.lng]);
  }, [route, time]);

  // Animation loop while playing.
  useEffect(() => {
    if (!state.playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const dt = now - last;
      last = now;
      const current = stateRef.current;
      const next = advancePlayback({ ...current, time: controlledTime ?? current.time }, dt, range);
      stateRef.current = next;
      setState(next);
      onTimeChangeRef.current?.(next.time);
      if (next.playing) frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [state.playing, range, controlledTime]);

  if (!overlay || !controls) return null;
  return createPortal(
    <div ref={controlsRef} className="pointer-events-auto absolute inset-x-3 bottom-3">
      {route.length === 0 ? (
        <p
          data-slot="route-empty"
          role="status"
          className="rounded-lg border border-border bg-surface-raised px-3 py-2 text-sm text-foreground"
        >
          {messages.noRoute}
        </p>
      ) : (
        <RoutePlayback
          start={range.start}
          end={range.end}
          time={time}
          playing={state.playing}
          speed={state.speed}
          onPlayingChange={(playing) =>
            setState((s) => (playing ? startPlayback(s, range) : { ...s, playing }))
          }
          onSpeedChange={(speed) => setState((s) => ({ ...s, speed }))}
          onTimeChange={setTime}
          labels={labels}
          {...(timeZone ? { timeZone } : {})}
          {...(formatTime ? { formatTime } : {})}
        />
      )}
    </div>,
    overlay,
  );
}
