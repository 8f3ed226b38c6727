/**
 * Pure maths of route playback: cleaning a list of location records, interpolating the position at
 * any instant, and advancing the play head. The React controls and the Leaflet layer only call these.
 */
import { isValidLatLng, type LatLng } from './projection';

export interface RoutePoint {
  lat: number;
  lng: number;
  /** Epoch milliseconds of the location record (`created_at`). */
  time: number;
  /** Speed in km/h, when the record carries one. */
  speed?: number | null;
}

/**
 * Playback multipliers of real time. A recorded trip is hours long, so 1x is only useful for short
 * clips; 60x plays an hour in a minute (the default).
 */
export const playbackSpeeds = [1, 10, 30, 60, 120, 300] as const;
export type PlaybackSpeed = (typeof playbackSpeeds)[number];
export const defaultPlaybackSpeed: PlaybackSpeed = 60;

export interface NormalizedRoute {
  points: RoutePoint[];
  /** Records dropped because their coordinates or time were not valid. */
  dropped: number;
}

/** Drops invalid records and sorts the rest by time (stable for equal times). */
export function normalizeRoute(points: readonly RoutePoint[]): NormalizedRoute {
  const valid = points.filter((p) => isValidLatLng(p.lat, p.lng) && Number.isFinite(p.time));
  const sorted = valid
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.time - b.p.time || a.i - b.i)
    .map((x) => x.p);
  return { points: sorted, dropped: points.length - valid.length };
}

/** Initial compass bearing from a to b in degrees [0, 360). */
export function bearing(a: LatLng, b: LatLng): number {
  const r = Math.PI / 180;
  const y = Math.sin((b.lng - a.lng) * r) * Math.cos(b.lat * r);
  const x =
    Math.cos(a.lat * r) * Math.sin(b.lat * r) -
    Math.sin(a.lat * r) * Math.cos(b.lat * r) * Math.cos((b.lng - a.lng) * r);
  const deg = (Math.atan2(y, x) * 180) / Math.PI;
  return (deg + 360) % 360;
}

export interface RoutePosition extends LatLng {
  time: number;
  /** Index of the record at or before `time`. */
  index: number;
  /** Bearing of the current segment, null on a single-point route or a stationary segment. */
  heading: number | null;
  speed: number | null;
}

/** Index of the last point with `time <= t` (0 when t precedes the route). Points must be sorted. */
export function indexAt(points: readonly RoutePoint[], t: number): number {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0) return -1;
  if (t <= points[0]!.time) return 0;
  if (t >= points[hi]!.time) return hi;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid]!.time <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Position at instant t, linearly interpolated between the surrounding records; null on an empty route. */
export function positionAt(points: readonly RoutePoint[], t: number): RoutePosition | null {
  if (points.length === 0) return null;
  const i = indexAt(points, t);
  const a = points[i]!;
  const b = points[Math.min(i + 1, points.length - 1)]!;
  const span = b.time - a.time;
  const f = span > 0 ? Math.max(0, Math.min(1, (t - a.time) / span)) : 0;
  const moving = a.lat !== b.lat || a.lng !== b.lng;
  let heading: number | null = moving ? bearing(a, b) : null;
  if (!moving && i > 0) {
    const prev = points[i - 1]!;
    if (prev.lat !== a.lat || prev.lng !== a.lng) heading = bearing(prev, a);
  }
  return {
    lat: a.lat + (b.lat - a.lat) * f,
    lng: a.lng + (b.lng - a.lng) * f,
    time: Math.max(points[0]!.time, Math.min(points[points.length - 1]!.time, t)),
    index: i,
    heading,
    speed: a.speed ?? null,
  };
}

export interface PlaybackState {
  /** Current instant (epoch ms). */
  time: number;
  playing: boolean;
  speed: number;
}

/**
 * Moves the play head by `elapsedMs` of wall time times the speed; stops (playing = false) at the
 * end of the route. A negative or non-finite elapsed time is treated as zero.
 */
export function advancePlayback(
  state: PlaybackState,
  elapsedMs: number,
  range: { start: number; end: number },
): PlaybackState {
  if (!state.playing) return state;
  const dt = Number.isFinite(elapsedMs) && elapsedMs > 0 ? elapsedMs : 0;
  const next = state.time + dt * state.speed;
  if (next >= range.end) return { ...state, time: range.end, playing: false };
  return { ...state, time: Math.max(range.start, next) };
}

/** Starting play at the end rewinds to the start, as media players do. */
export function startPlayback(state: PlaybackState, range: { start: number; end: number }): PlaybackState {
  const time = state.time >= range.end ? range.start : state.time;
  return { ...state, time, playing: true };
}
