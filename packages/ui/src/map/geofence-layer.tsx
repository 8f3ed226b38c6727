import { cva } from 'class-variance-authority';
import L from 'leaflet';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { format } from '../i18n/locale';
import { cn } from '../lib/cn';
import {
  circleCenter,
  circleFromPoints,
  edgeMidpoints,
  insertVertex,
  moveVertex,
  polygonFromVertices,
  polygonVertices,
  removeVertex,
  validateCircle,
  validatePolygon,
  type GeofenceGeometry,
  type GeofenceShape,
  type GeofenceShapeType,
} from './geofence-geometry';
import { useMapContext } from './map-context';
import type { MapMessages } from './messages.en';
import { distanceMeters, type LatLng } from './projection';
import { useMapMessages } from './use-map-messages';

export const geofenceToolbarVariants = cva(
  'pointer-events-auto absolute top-3 start-3 flex max-w-[calc(100%-5rem)] flex-wrap items-center gap-2 rounded-lg border border-border bg-surface-raised p-2 text-sm text-foreground shadow-md',
);

const toolButton = cva(
  'inline-flex h-8 items-center rounded-md px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring disabled:opacity-50',
  {
    variants: {
      active: {
        true: 'bg-primary text-primary-foreground',
        false: 'border border-border-strong bg-surface text-foreground hover:bg-surface-sunken',
      },
    },
    defaultVariants: { active: false },
  },
);

const handleClass =
  'rounded-full border-2 border-primary bg-surface shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring';
const midpointClass = 'rounded-full border border-primary bg-surface opacity-70 hover:opacity-100';

export interface GeofenceLayerProps {
  shapes: readonly GeofenceShape[];
  selectedId?: string | null;
  onSelect?: (id: string) => void;
  /** Shape whose vertices / centre / radius can be dragged (or nudged with arrow keys). */
  editableId?: string | null;
  /** Emitted after an edit with the whole shape and its new geometry. */
  onShapeChange?: (shape: GeofenceShape) => void;
  /** Active drawing tool, controlled. */
  drawMode?: GeofenceShapeType | null;
  onDrawModeChange?: (mode: GeofenceShapeType | null) => void;
  /** A new shape was drawn (GeoJSON-like geometry). */
  onDrawComplete?: (geometry: GeofenceGeometry) => void;
  /** Show the draw toolbar over the map (default: when onDrawModeChange is given). */
  toolbar?: boolean;
  labels?: Partial<MapMessages>;
}

interface DrawController {
  finish(): void;
  undo(): void;
  cancel(): void;
}

const NUDGE_PX = 5;

/** Lets arrow keys move a draggable handle by a few screen pixels (geographic directions, not RTL-flipped). */
function nudgeOnArrows(map: L.Map, marker: L.Marker, onMoved: (to: L.LatLng) => void): void {
  const el = marker.getElement();
  if (!el) return;
  el.addEventListener('keydown', (ev) => {
    const step = ev.shiftKey ? NUDGE_PX * 4 : NUDGE_PX;
    const delta: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const d = delta[ev.key];
    if (!d) return;
    ev.preventDefault();
    ev.stopPropagation();
    const p = map.latLngToContainerPoint(marker.getLatLng()).add(d);
    const to = map.containerPointToLatLng(p);
    marker.setLatLng(to);
    onMoved(to);
  });
}

const ll = (p: L.LatLng): LatLng => ({ lat: p.lat, lng: p.lng });

/** A point `meters` east of `c` (for the circle's radius handle). */
function eastOf(c: LatLng, meters: number): LatLng {
  return { lat: c.lat, lng: c.lng + meters / (111320 * Math.cos((c.lat * Math.PI) / 180)) };
}

/**
 * Geofences as polygons and circles, with drawing (click to add polygon points, click the first point
 * or press Finish to close; circle = centre click then radius click) and editing (drag vertices, drag
 * an edge midpoint to add a point, right-click a vertex to remove it, drag the circle centre or its
 * radius handle; arrow keys nudge a focused handle). Escape cancels drawing, Enter finishes, Backspace
 * removes the last point.
 */
export function GeofenceLayer({
  shapes,
  selectedId = null,
  onSelect,
  editableId = null,
  onShapeChange,
  drawMode = null,
  onDrawModeChange,
  onDrawComplete,
  toolbar,
  labels,
}: GeofenceLayerProps) {
  const { map, theme, overlay } = useMapContext();
  const messages = useMapMessages(labels);
  const cb = useRef({ onSelect, onShapeChange, onDrawModeChange, onDrawComplete });
  useLayoutEffect(() => {
    cb.current = { onSelect, onShapeChange, onDrawModeChange, onDrawComplete };
  });
  const [announcement, setAnnouncement] = useState('');
  const [pointCount, setPointCount] = useState(0);
  const draw = useRef<DrawController | null>(null);

  // Static shapes (the one being edited is drawn by the edit effect instead).
  useEffect(() => {
    const group = L.featureGroup().addTo(map);
    for (const shape of shapes) {
      if (shape.id === editableId) continue;
      const colour = shape.color || theme.primary;
      const selected = shape.id === selectedId;
      const style: L.PathOptions = {
        color: colour,
        weight: selected ? 4 : 2,
        fillColor: colour,
        fillOpacity: selected ? 0.25 : 0.12,
      };
      const layer =
        shape.geometry.type === 'Polygon'
          ? L.polygon(
              polygonVertices(shape.geometry).map((v) => [v.lat, v.lng] as [number, number]),
              style,
            )
          : L.circle([shape.geometry.center[1], shape.geometry.center[0]], {
              ...style,
              radius: shape.geometry.radius,
            });
      if (shape.name) layer.bindTooltip(shape.name, { sticky: true });
      layer.on('click', (e) => {
        L.DomEvent.stopPropagation(e);
        cb.current.onSelect?.(shape.id);
      });
      layer.addTo(group);
    }
    return () => {
      group.remove();
    };
  }, [map, shapes, selectedId, editableId, theme]);

  // Editing handles.
  const editable = shapes.find((s) => s.id === editableId);
  useEffect(() => {
    if (!editable) return;
    const shape = editable;
    const colour = shape.color || theme.primary;
    const group = L.layerGroup().addTo(map);
    const emit = (geometry: GeofenceGeometry) => cb.current.onShapeChange?.({ ...shape, geometry });
    const icon = (cls: string, size: number) =>
      L.divIcon({ className: cls, iconSize: [size, size], iconAnchor: [size / 2, size / 2] });

    if (shape.geometry.type === 'Polygon') {
      let vertices = polygonVertices(shape.geometry);
      const polygon = L.polygon(
        vertices.map((v) => [v.lat, v.lng] as [number, number]),
        { color: colour, weight: 3, fillColor: colour, fillOpacity: 0.2, dashArray: '6 4' },
      ).addTo(group);
      const commit = (next: LatLng[]) => {
        const error = validatePolygon(next);
        if (error) {
          setAnnouncement(format(messages.invalidShape, { reason: error }));
          polygon.setLatLngs(vertices.map((v) => [v.lat, v.lng] as [number, number]));
          // Put the handles back where the last valid shape had them.
          handles.forEach((h, i) => h.setLatLng([vertices[i]!.lat, vertices[i]!.lng]));
          return;
        }
        vertices = next;
        emit(polygonFromVertices(next));
      };
      const handles = vertices.map((v, i) => {
        const marker = L.marker([v.lat, v.lng], {
          draggable: true,
          keyboard: true,
          title: format(messages.vertex, { index: i + 1 }),
          icon: icon(handleClass, 14),
        }).addTo(group);
        marker.on('drag', () => {
          polygon.setLatLngs(
            moveVertex(vertices, i, ll(marker.getLatLng())).map((p) => [p.lat, p.lng] as [number, number]),
          );
        });
        marker.on('dragend', () => commit(moveVertex(vertices, i, ll(marker.getLatLng()))));
        marker.on('contextmenu', (e) => {
          L.DomEvent.preventDefault(e.originalEvent);
          if (vertices.length > 3) commit(removeVertex(vertices, i));
        });
        nudgeOnArrows(map, marker, (to) => commit(moveVertex(vertices, i, ll(to))));
        marker.getElement()?.setAttribute('data-slot', 'geofence-vertex');
        return marker;
      });
      edgeMidpoints(vertices).forEach((m, i) => {
        const marker = L.marker([m.lat, m.lng], {
          draggable: true,
          keyboard: false,
          title: messages.addVertex,
          icon: icon(midpointClass, 10),
        }).addTo(group);
        marker.getElement()?.setAttribute('data-slot', 'geofence-midpoint');
        marker.on('dragend', () => commit(insertVertex(vertices, i, ll(marker.getLatLng()))));
      });
    } else {
      const geometry = shape.geometry;
      let centre = circleCenter(geometry);
      let radius = geometry.radius;
      const circle = L.circle([centre.lat, centre.lng], {
        radius,
        color: colour,
        weight: 3,
        fillColor: colour,
        fillOpacity: 0.2,
        dashArray: '6 4',
      }).addTo(group);
      const edge = eastOf(centre, radius);
      const centreHandle = L.marker([centre.lat, centre.lng], {
        draggable: true,
        keyboard: true,
        title: messages.circleCenter,
        icon: icon(handleClass, 16),
      }).addTo(group);
      const radiusHandle = L.marker([edge.lat, edge.lng], {
        draggable: true,
        keyboard: true,
        title: messages.circleRadius,
        icon: icon(handleClass, 14),
      }).addTo(group);
      centreHandle.getElement()?.setAttribute('data-slot', 'geofence-circle-center');
      radiusHandle.getElement()?.setAttribute('data-slot', 'geofence-circle-radius');
      const commit = () => {
        const error = validateCircle(centre, radius);
        if (error) {
          setAnnouncement(format(messages.invalidShape, { reason: error }));
          return;
        }
        emit({ type: 'Circle', center: [centre.lng, centre.lat], radius: Math.round(radius) });
      };
      const moveCentre = (to: L.LatLng) => {
        centre = ll(to);
        circle.setLatLng(to);
        const e = eastOf(centre, radius);
        radiusHandle.setLatLng([e.lat, e.lng]);
      };
      const moveRadius = (to: L.LatLng) => {
        radius = distanceMeters(centre, ll(to));
        circle.setRadius(radius);
      };
      centreHandle.on('drag', () => moveCentre(centreHandle.getLatLng()));
      centreHandle.on('dragend', commit);
      radiusHandle.on('drag', () => moveRadius(radiusHandle.getLatLng()));
      radiusHandle.on('dragend', commit);
      nudgeOnArrows(map, centreHandle, (to) => {
        moveCentre(to);
        commit();
      });
      nudgeOnArrows(map, radiusHandle, (to) => {
        moveRadius(to);
        commit();
      });
    }
    return () => {
      group.remove();
    };
  }, [map, editable, theme, messages]);

  // Drawing tools.
  useEffect(() => {
    if (!drawMode) return;
    const colour = theme.primary;
    const container = map.getContainer();
    const group = L.layerGroup().addTo(map);
    const line: L.PathOptions = { color: colour, weight: 2, dashArray: '6 4', interactive: false };
    const vertices: LatLng[] = [];
    const preview = L.polyline([], line).addTo(group);
    const rubber = L.polyline([], { ...line, opacity: 0.6 }).addTo(group);
    const dots: L.CircleMarker[] = [];
    let centre: LatLng | null = null;
    let circle: L.Circle | null = null;
    const hadDoubleClickZoom = map.doubleClickZoom.enabled();
    map.doubleClickZoom.disable();
    container.style.cursor = 'crosshair';

    const stop = () => cb.current.onDrawModeChange?.(null);
    const redraw = () => {
      preview.setLatLngs(vertices.map((v) => [v.lat, v.lng] as [number, number]));
      setPointCount(vertices.length);
    };
    const finishPolygon = () => {
      const error = validatePolygon(vertices);
      if (error) {
        setAnnouncement(format(messages.invalidShape, { reason: error }));
        return;
      }
      cb.current.onDrawComplete?.(polygonFromVertices(vertices));
      setAnnouncement(format(messages.drawnPolygon, { count: vertices.length }));
      stop();
    };
    const finishCircle = (edge: LatLng) => {
      if (!centre) return;
      const radius = Math.round(distanceMeters(centre, edge));
      const error = validateCircle(centre, radius);
      if (error) {
        setAnnouncement(format(messages.invalidShape, { reason: error }));
        return;
      }
      cb.current.onDrawComplete?.(circleFromPoints(centre, edge));
      setAnnouncement(format(messages.drawnCircle, { radius }));
      stop();
    };
    const onClick = (e: L.LeafletMouseEvent) => {
      const at = ll(e.latlng);
      if (drawMode === 'circle') {
        if (!centre) {
          centre = at;
          circle = L.circle([at.lat, at.lng], { ...line, radius: 1, fillOpacity: 0.1 }).addTo(group);
          setPointCount(1);
        } else finishCircle(at);
        return;
      }
      const first = vertices[0];
      if (first && vertices.length >= 3) {
        const p = map.latLngToContainerPoint([first.lat, first.lng]);
        if (p.distanceTo(e.containerPoint) <= 10) {
          finishPolygon();
          return;
        }
      }
      vertices.push(at);
      dots.push(
        L.circleMarker([at.lat, at.lng], {
          radius: 5,
          color: colour,
          weight: 2,
          fillColor: theme.surface,
          fillOpacity: 1,
          interactive: false,
        }).addTo(group),
      );
      redraw();
    };
    const onMove = (e: L.LeafletMouseEvent) => {
      if (drawMode === 'circle') {
        if (centre && circle) circle.setRadius(distanceMeters(centre, ll(e.latlng)));
        return;
      }
      const last = vertices[vertices.length - 1];
      if (!last) return;
      const pts: [number, number][] = [
        [last.lat, last.lng],
        [e.latlng.lat, e.latlng.lng],
      ];
      if (vertices.length >= 2) pts.push([vertices[0]!.lat, vertices[0]!.lng]);
      rubber.setLatLngs(pts);
    };
    const undo = () => {
      if (drawMode === 'circle') {
        centre = null;
        circle?.remove();
        circle = null;
        setPointCount(0);
        return;
      }
      vertices.pop();
      dots.pop()?.remove();
      rubber.setLatLngs([]);
      redraw();
    };
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key === 'Escape') stop();
      else if (ev.key === 'Enter' && drawMode === 'polygon') finishPolygon();
      else if (ev.key === 'Backspace') undo();
      else return;
      ev.preventDefault();
    };
    draw.current = { finish: finishPolygon, undo, cancel: stop };
    map.on('click', onClick);
    map.on('mousemove', onMove);
    map.on('dblclick', finishPolygon);
    container.addEventListener('keydown', onKey);
    return () => {
      draw.current = null;
      map.off('click', onClick);
      map.off('mousemove', onMove);
      map.off('dblclick', finishPolygon);
      container.removeEventListener('keydown', onKey);
      container.style.cursor = '';
      if (hadDoubleClickZoom) map.doubleClickZoom.enable();
      group.remove();
      setPointCount(0);
    };
  }, [map, drawMode, theme, messages]);

  const showToolbar = toolbar ?? !!onDrawModeChange;
  if (!overlay) return null;
  return createPortal(
    <>
      {showToolbar ? (
        <div
          role="toolbar"
          aria-label={messages.geofenceTools}
          data-slot="geofence-toolbar"
          className={cn(geofenceToolbarVariants())}
        >
          {drawMode === null ? (
            <>
              <button
                type="button"
                className={toolButton()}
                onClick={() => {
                  setAnnouncement('');
                  onDrawModeChange?.('polygon');
                }}
              >
                {messages.drawPolygon}
              </button>
              <button
                type="button"
                className={toolButton()}
                onClick={() => {
                  setAnnouncement('');
                  onDrawModeChange?.('circle');
                }}
              >
                {messages.drawCircle}
              </button>
            </>
          ) : (
            <>
              <span data-slot="geofence-mode" className={toolButton({ active: true })}>
                {drawMode === 'polygon' ? messages.drawPolygon : messages.drawCircle}
              </span>
              {drawMode === 'polygon' ? (
                <button
                  type="button"
                  className={toolButton()}
                  disabled={pointCount < 3}
                  onClick={() => draw.current?.finish()}
                >
                  {messages.finishDrawing}
                </button>
              ) : null}
              <button
                type="button"
                className={toolButton()}
                disabled={pointCount === 0}
                onClick={() => draw.current?.undo()}
              >
                {messages.undoPoint}
              </button>
              <button type="button" className={toolButton()} onClick={() => draw.current?.cancel()}>
                {messages.cancelDrawing}
              </button>
            </>
          )}
        </div>
      ) : null}
      <p role="status" data-slot="geofence-status" className="sr-only">
        {announcement ||
          (drawMode === 'polygon'
            ? messages.drawPolygonHint
            : drawMode === 'circle'
              ? messages.drawCircleHint
              : '')}
      </p>
    </>,
    overlay,
  );
}
