import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '../button';
import { cn } from '../lib/cn';
import { MapPinIcon } from '../icons';
import { useMapContext } from './map-context';
import { useMapMessages } from './use-map-messages';
import type { MapMessages } from './messages.en';

/** Keys with which Leaflet's keyboard handler pans the focused map (they stop following, as a drag does). */
const PAN_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);

export interface FollowVehicleButtonProps {
  following: boolean;
  onFollowingChange: (following: boolean) => void;
  /** The vehicle's name (its plate): the button then reads "Follow C 10074". */
  name?: string | null;
  labels?: Partial<Pick<MapMessages, 'followVehicle' | 'followNamed'>>;
  className?: string;
  'data-testid'?: string;
}

/**
 * The "Follow vehicle" toggle (aria-pressed), for pages that place it themselves (the live console's
 * bar rides over its phone bottom sheet). Its name stays the same pressed or not, so a screen reader
 * hears "Follow C 10074, toggle button, pressed".
 */
export function FollowVehicleButton({
  following,
  onFollowingChange,
  name,
  labels,
  className,
  'data-testid': testId,
}: FollowVehicleButtonProps) {
  const text = useMapMessages(labels);
  return (
    <Button
      type="button"
      size="sm"
      variant={following ? 'primary' : 'outline'}
      aria-pressed={following}
      data-slot="follow-vehicle"
      data-testid={testId}
      startIcon={<MapPinIcon />}
      onClick={() => onFollowingChange(!following)}
      className={cn(!following && 'bg-surface', className)}
    >
      {name ? text.followNamed.replace('{name}', name) : text.followVehicle}
    </Button>
  );
}

export interface FollowVehicleProps {
  /** The followed vehicle's position; null when it has none (nothing is followed, no button). */
  position: { lat: number; lng: number } | null;
  /** Controlled state; leave undefined to let the component keep it (starting at `defaultFollowing`). */
  following?: boolean;
  defaultFollowing?: boolean;
  onFollowingChange?: (following: boolean) => void;
  /**
   * 'centre' keeps the vehicle in the middle at every fix (a small map about one vehicle); 'edge' pans
   * only when it leaves the middle 60 % of the map (a large map where the user also looks around it).
   */
  keep?: 'centre' | 'edge';
  /** Where the toggle goes: in the map's overlay (bottom-end corner) or nowhere (the page has its own). */
  control?: 'overlay' | 'none';
  name?: string | null;
  labels?: Partial<Pick<MapMessages, 'followVehicle' | 'followNamed'>>;
  'data-testid'?: string;
}

/**
 * Follows a vehicle on the enclosing MapView: each new position pans the map to it (at the user's
 * zoom) while following is on. A drag, or panning with the arrow keys, says the user wants to look
 * elsewhere: following turns off and the map stays where they put it. Zooming does not stop it (it
 * changes how much is seen around the vehicle, not where). The "Follow vehicle" toggle turns it back
 * on and recentres on the vehicle at once. The Leaflet container carries the state for tests and
 * tools: data-follow (on/off) and data-centre (the last position followed).
 */
export function FollowVehicle({
  position,
  following: controlled,
  defaultFollowing = true,
  onFollowingChange,
  keep = 'centre',
  control = 'overlay',
  name,
  labels,
  'data-testid': testId,
}: FollowVehicleProps) {
  const { map, overlay } = useMapContext();
  const [inner, setInner] = useState(defaultFollowing);
  const following = controlled ?? inner;
  const change = (next: boolean) => {
    if (controlled === undefined) setInner(next);
    onFollowingChange?.(next);
  };
  // The map's listeners are added once per map; they read the latest state and callback through refs.
  const set = useRef(change);
  const followingRef = useRef(following);
  useEffect(() => {
    set.current = change;
    followingRef.current = following;
  });

  // A user's drag or keyboard pan ends following.
  useEffect(() => {
    const container = map.getContainer();
    const stop = () => {
      if (followingRef.current) set.current(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (PAN_KEYS.has(e.key) && e.target === container) stop();
    };
    map.on('dragstart', stop);
    container.addEventListener('keydown', onKey);
    return () => {
      map.off('dragstart', stop);
      container.removeEventListener('keydown', onKey);
    };
  }, [map]);

  useEffect(() => {
    map.getContainer().dataset.follow = following ? 'on' : 'off';
  }, [map, following]);

  const lat = position?.lat;
  const lng = position?.lng;
  // Turning following on recentres at once; afterwards each new fix keeps the vehicle in view.
  const wasFollowing = useRef(false);
  useEffect(() => {
    const turnedOn = following && !wasFollowing.current;
    wasFollowing.current = following;
    if (!following || lat === undefined || lng === undefined) return;
    const here = map.getCenter();
    const away = Math.abs(here.lat - lat) > 1e-7 || Math.abs(here.lng - lng) > 1e-7;
    const outside = !map.getBounds().pad(-0.2).contains([lat, lng]);
    if (away && (turnedOn || keep === 'centre' || outside)) map.panTo([lat, lng]);
    map.getContainer().dataset.centre = `${lat},${lng}`;
  }, [map, following, lat, lng, keep]);

  if (control === 'none' || !overlay || !position) return null;
  return createPortal(
    <div className="pointer-events-auto absolute end-2.5 bottom-7 z-[1000]">
      <FollowVehicleButton
        following={following}
        onFollowingChange={change}
        name={name ?? null}
        {...(labels ? { labels } : {})}
        {...(testId ? { 'data-testid': testId } : {})}
        className="shadow-sm"
      />
    </div>,
    overlay,
  );
}
