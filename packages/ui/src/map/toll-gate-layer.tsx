import L from 'leaflet';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { format } from '../i18n/locale';
import { isValidLatLng } from './projection';
import { useMapContext } from './map-context';
import type { MapMessages } from './messages.en';
import { useMapMessages } from './use-map-messages';

/** A salik (toll) gate: the line across the road a vehicle crosses. */
export interface TollGate {
  id: string;
  name: string;
  /** Two or more [lat, lng] points; gates with fewer valid points are skipped. */
  line: readonly (readonly [number, number])[];
}

export interface TollGateLayerProps {
  gates: readonly TollGate[];
  selectedId?: string | null;
  onSelect?: (id: string) => void;
  /** Keep the gate names visible as labels (default true); otherwise they show on hover. */
  showLabels?: boolean;
  labels?: Partial<MapMessages>;
}

/** Salik gates drawn as thick lines in the warning colour, with their names, clickable. */
export function TollGateLayer({
  gates,
  selectedId = null,
  onSelect,
  showLabels = true,
  labels,
}: TollGateLayerProps) {
  const { map, theme } = useMapContext();
  const messages = useMapMessages(labels);
  const onSelectRef = useRef(onSelect);
  useLayoutEffect(() => {
    onSelectRef.current = onSelect;
  });
  useEffect(() => {
    const group = L.layerGroup().addTo(map);
    for (const gate of gates) {
      const points = gate.line.filter(([lat, lng]) => isValidLatLng(lat, lng));
      if (points.length < 2) continue;
      const selected = gate.id === selectedId;
      const latlngs = points.map(([lat, lng]) => [lat, lng] as [number, number]);
      L.polyline(latlngs, { color: theme.surface, weight: selected ? 12 : 10, interactive: false }).addTo(
        group,
      );
      const line = L.polyline(latlngs, {
        color: selected ? theme.danger : theme.warning,
        weight: selected ? 7 : 5,
        lineCap: 'butt',
      }).addTo(group);
      line.bindTooltip(gate.name, {
        permanent: showLabels,
        direction: 'top',
        className: 'font-medium',
      });
      line.on('click', (e) => {
        L.DomEvent.stopPropagation(e);
        onSelectRef.current?.(gate.id);
      });
      // The SVG path is the gate's control: a named, focusable button that Enter/Space selects.
      const el = line.getElement();
      if (el) {
        el.setAttribute('role', 'button');
        el.setAttribute('tabindex', '0');
        el.setAttribute('aria-label', format(messages.tollGate, { name: gate.name }));
        el.setAttribute('aria-pressed', String(selected));
        el.setAttribute('data-slot', 'toll-gate');
        el.setAttribute('data-gate-id', gate.id);
        el.addEventListener('keydown', (ev) => {
          if ((ev as KeyboardEvent).key !== 'Enter' && (ev as KeyboardEvent).key !== ' ') return;
          ev.preventDefault();
          onSelectRef.current?.(gate.id);
        });
      }
    }
    return () => {
      group.remove();
    };
  }, [map, gates, selectedId, showLabels, theme, messages.tollGate]);
  return null;
}
