import { ioElementCatalogue, type IoElementDefinition, type LocalizedName } from './catalogue';
import { inputElementCatalogue } from './inputs';
import { tyreElementCatalogue } from './tyres';

/** Every element the product names: the spec's table, then the product's input and tyre extensions. */
const known: Record<number, IoElementDefinition> = {
  ...tyreElementCatalogue,
  ...inputElementCatalogue,
  ...ioElementCatalogue,
};

interface ReadingBase {
  /** Numeric id, or null when the record used a key that is not a number. */
  id: number | null;
  /** The key exactly as it appeared in io_elements. */
  sourceKey: string;
  /** Catalogue key (e.g. 'batteryVoltage'), or `io_{sourceKey}` for an unknown element. */
  key: string;
  name: LocalizedName | null;
  /** The value as received. */
  raw: unknown;
}

export type IoReading =
  | (ReadingBase & { kind: 'number'; value: number; unit?: string })
  | (ReadingBase & { kind: 'boolean'; value: boolean })
  | (ReadingBase & { kind: 'enum'; value: number; label: LocalizedName | null })
  /** Unknown id, or a known id whose value could not be read as its kind: kept, never dropped. */
  | (ReadingBase & { kind: 'raw'; value: unknown });

export type IoElementsLike = Record<string, unknown> | null | undefined;

/** The value of one entry: `{value}` objects are unwrapped, anything else is taken as the value. */
function entryValue(entry: unknown): unknown {
  if (typeof entry === 'object' && entry !== null && 'value' in entry)
    return (entry as { value: unknown }).value;
  return entry;
}

/** A finite number from a number or numeric string. */
export function toFiniteNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function toBoolean(value: unknown): boolean | null {
  if (value === true || value === false) return value;
  const n = toFiniteNumber(value);
  if (n === 1) return true;
  if (n === 0) return false;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return null;
}

/** Multiplies without binary noise (0.1 * 3 -> 0.3). */
function scaled(value: number, scale: number | undefined): number {
  if (scale === undefined || scale === 1) return value;
  return Number((value * scale).toPrecision(12));
}

function decodeOne(sourceKey: string, raw: unknown): IoReading {
  const numericId = /^\d+$/.test(sourceKey.trim()) ? Number(sourceKey) : null;
  const definition = numericId === null ? undefined : known[numericId];
  const base: ReadingBase = {
    id: numericId,
    sourceKey,
    key: definition?.key ?? `io_${sourceKey}`,
    name: definition?.name ?? null,
    raw,
  };
  if (definition) {
    if (definition.kind === 'boolean') {
      const value = toBoolean(raw);
      if (value !== null) return { ...base, kind: 'boolean', value };
    } else {
      const value = toFiniteNumber(raw);
      if (value !== null) {
        if (definition.kind === 'enum') {
          return { ...base, kind: 'enum', value, label: definition.values?.[value] ?? null };
        }
        const reading: IoReading = { ...base, kind: 'number', value: scaled(value, definition.scale) };
        if (definition.unit !== undefined) reading.unit = definition.unit;
        return reading;
      }
    }
  }
  return { ...base, kind: 'raw', value: raw };
}

/**
 * Decodes io_elements (keyed by numeric id, each `{value}`) into named, typed readings, ordered by
 * id (non-numeric keys last). Unknown ids and unreadable values are kept as `kind: 'raw'`.
 */
export function decodeIoElements(io: IoElementsLike): IoReading[] {
  if (typeof io !== 'object' || io === null) return [];
  return Object.entries(io)
    .map(([key, entry]) => decodeOne(key, entryValue(entry)))
    .sort((a, b) => {
      if (a.id !== null && b.id !== null) return a.id - b.id;
      if (a.id !== null) return -1;
      if (b.id !== null) return 1;
      return a.sourceKey.localeCompare(b.sourceKey);
    });
}

/** The raw value of one element, or undefined when absent. */
export function ioElementValue(io: IoElementsLike, id: number): unknown {
  if (typeof io !== 'object' || io === null) return undefined;
  const entry = io[String(id)];
  return entry === undefined ? undefined : entryValue(entry);
}

/** The numeric value of one element (numbers and numeric strings), or null. */
export function ioElementNumber(io: IoElementsLike, id: number): number | null {
  return toFiniteNumber(ioElementValue(io, id));
}
