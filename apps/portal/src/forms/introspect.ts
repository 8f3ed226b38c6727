import type { z } from 'zod';

/** How a field of an input schema is edited. */
export type FieldKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'phone'
  | 'password'
  | 'number'
  | 'date'
  | 'time'
  | 'datetime'
  | 'boolean'
  | 'select'
  | 'multiselect'
  | 'reference'
  | 'references'
  | 'days'
  | 'place'
  | 'coordinates'
  | 'color'
  | 'geometry'
  | 'unsupported';

export interface FieldDef {
  name: string;
  kind: FieldKind;
  /** Required by the contract (the form shows '(optional)' on the others). */
  required: boolean;
  /** Allowed values of select/multiselect fields. */
  options?: readonly string[];
  /** Entity (endpoint group) a reference points to. */
  ref?: string;
  /** The contract's default for a new record (e.g. tracking rules ['entry', 'exit']). */
  initial?: unknown;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  format?: string;
  entries?: Record<string, string>;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  values?: unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Strips optional/nullable/default/pipe wrappers and the `'' | X` unions of optional inputs. */
export function baseSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i += 1) {
    const def = defOf(current);
    if (
      ['optional', 'nullable', 'default', 'nonoptional', 'readonly', 'catch', 'prefault'].includes(
        def.type,
      ) &&
      def.innerType
    ) {
      current = def.innerType;
    } else if (def.type === 'pipe' && def.in) {
      current = def.in;
    } else if (def.type === 'union' && def.options) {
      const real = def.options.filter((o) => defOf(o).type !== 'literal');
      if (real.length !== 1 || !real[0]) return current;
      current = real[0];
    } else {
      return current;
    }
  }
  return current;
}

/** Reference fields: `<name>_uuid(s)` -> the entity group they point to. */
export const referenceTargets: Record<string, string> = {
  branch: 'branches',
  station: 'stations',
  school: 'schools',
  driver: 'drivers',
  vehicle: 'vehicles',
  supervisor: 'supervisors',
  trip: 'trips',
  scheduled_trip: 'scheduledTrips',
  passenger: 'passengers',
  guardian: 'guardians',
  device: 'devices',
  geofence: 'geofences',
};

function refTarget(name: string): string | undefined {
  const match = /^(.+?)_uuids?$/.exec(name);
  return match ? referenceTargets[match[1] ?? ''] : undefined;
}

function stringKind(name: string, def: Def): FieldKind {
  if (def.format === 'date') return 'date';
  if (def.format === 'datetime') return 'datetime';
  if (def.format === 'uuid') return 'reference';
  if (name.endsWith('_time')) return 'time';
  if (name.includes('password')) return 'password';
  if (name.includes('email')) return 'email';
  if (name.includes('phone')) return 'phone';
  if (name === 'color') return 'color';
  if (name === 'notes' || name === 'description' || name === 'message') return 'textarea';
  return 'text';
}

/** The form field of one schema property. */
export function describeField(name: string, schema: z.ZodType): FieldDef {
  const empty = schema.safeParse(undefined);
  const required = !empty.success;
  const initial = empty.success && empty.data !== null && empty.data !== undefined ? empty.data : undefined;
  const base = baseSchema(schema);
  const def = defOf(base);
  const out = (kind: FieldKind, extra: Partial<FieldDef> = {}): FieldDef => ({
    name,
    kind,
    required,
    ...(initial !== undefined ? { initial } : {}),
    ...extra,
  });
  switch (def.type) {
    case 'string': {
      const kind = stringKind(name, def);
      const ref = refTarget(name);
      return kind === 'reference' && ref ? out(kind, { ref }) : out(kind === 'reference' ? 'text' : kind);
    }
    case 'number':
      return out('number');
    case 'boolean':
      return out('boolean');
    case 'enum':
      return out('select', { options: Object.values(def.entries ?? {}) });
    case 'array': {
      const element = def.element ? defOf(baseSchema(def.element)) : undefined;
      if (element?.type === 'enum')
        return out('multiselect', { options: Object.values(element.entries ?? {}) });
      if (element?.type === 'number') return out('days');
      const ref = refTarget(name);
      if (element?.type === 'string' && ref) return out('references', { ref });
      return out('unsupported');
    }
    case 'object':
      return out(def.shape && 'address' in def.shape ? 'place' : 'coordinates');
    case 'union':
      return out(name === 'geometry' ? 'geometry' : 'unsupported');
    default:
      return out('unsupported');
  }
}

/** Every property of an object input schema, in declaration order. */
export function describeSchema(schema: z.ZodType): FieldDef[] {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) throw new Error('describeSchema: not an object schema');
  return Object.entries(shape).map(([name, field]) => describeField(name, field));
}
