import { fromApiTime, toApiTime } from '@fleet/core';
import type { FieldDef } from './introspect';

export type FormValues = Record<string, unknown>;

interface PlaceValue {
  latitude: string;
  longitude: string;
  address?: string;
}

function str(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** Form state of one field from a stored record (or the empty value for a new one). */
function initialOf(def: FieldDef, value: unknown): unknown {
  switch (def.kind) {
    case 'boolean':
      return value === true;
    case 'multiselect':
    case 'references':
    case 'days':
      return Array.isArray(value) ? value.map(String) : [];
    case 'time':
      return typeof value === 'string' && value ? fromApiTime(value) : '';
    case 'datetime':
      return typeof value === 'string' && value ? toLocalInput(value) : '';
    case 'place':
    case 'coordinates': {
      const place = (value ?? {}) as { latitude?: number; longitude?: number; address?: string | null };
      const out: PlaceValue = { latitude: str(place.latitude), longitude: str(place.longitude) };
      if (def.kind === 'place') out.address = str(place.address);
      return out;
    }
    case 'geometry':
      return value ?? null;
    case 'color':
      return typeof value === 'string' && value ? value : '#0f766e';
    default:
      return str(value);
  }
}

/** 'YYYY-MM-DDTHH:mm' in the browser's zone, for <input type="datetime-local">. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function initialValues(defs: readonly FieldDef[], item?: Record<string, unknown> | null): FormValues {
  const values: FormValues = {};
  // A new record starts from the contract's defaults; a stored one from its own values.
  for (const def of defs) values[def.name] = initialOf(def, item ? item[def.name] : def.initial);
  return values;
}

function numberOrText(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  // A non-number goes through as text so the contract reports 'Please enter a valid {field}'.
  return Number.isFinite(n) ? n : trimmed;
}

/**
 * Form state -> the input the contract validates. Empty inputs become "absent" so optional fields
 * pass and required ones get the spec's '{field} is required'; times get ':00' (spec §9, core rule);
 * local date-times become ISO instants.
 */
export function toInput(defs: readonly FieldDef[], values: FormValues): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const def of defs) {
    const value = values[def.name];
    switch (def.kind) {
      case 'number': {
        const n = numberOrText(str(value));
        if (n !== undefined) input[def.name] = n;
        break;
      }
      case 'select':
        if (str(value)) input[def.name] = value;
        break;
      case 'time':
        if (str(value)) input[def.name] = toApiTime(str(value));
        break;
      case 'datetime': {
        const text = str(value);
        if (text) {
          const date = new Date(text);
          input[def.name] = Number.isNaN(date.getTime()) ? text : date.toISOString();
        }
        break;
      }
      case 'days':
        input[def.name] = (value as string[]).map(Number);
        break;
      case 'multiselect':
      case 'references':
        input[def.name] = value;
        break;
      case 'place':
      case 'coordinates': {
        const place = value as PlaceValue;
        const lat = numberOrText(place.latitude);
        const lng = numberOrText(place.longitude);
        if (lat === undefined && lng === undefined) {
          input[def.name] = null;
        } else {
          const out: Record<string, unknown> = { latitude: lat, longitude: lng };
          if (def.kind === 'place') out.address = place.address ?? '';
          input[def.name] = out;
        }
        break;
      }
      case 'geometry':
        if (value) input[def.name] = value;
        break;
      case 'boolean':
        input[def.name] = value === true;
        break;
      case 'password':
        if (str(value)) input[def.name] = value;
        break;
      default:
        input[def.name] = str(value);
    }
  }
  return input;
}
