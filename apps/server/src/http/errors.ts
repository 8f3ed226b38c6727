import type { z } from 'zod';
import { t, translateFieldMessage, type Locale, type MessageKey } from './i18n';

/** An error with an HTTP status and a translatable message; the error handler renders it. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly errors?: Record<string, string[]>,
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
    this.name = 'HttpError';
  }

  render(locale: Locale): { message: string; errors?: Record<string, string[]> } {
    const message = t(locale, this.key, this.params);
    if (!this.errors) return { message };
    const errors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(this.errors))
      errors[k] = v.map((m) => translateFieldMessage(locale, m));
    return { message, errors };
  }
}

export const unauthenticated = () => new HttpError(401, 'auth.unauthenticated');
export const forbidden = () => new HttpError(403, 'forbidden');
export const notFound = (entity?: string) =>
  entity ? new HttpError(404, 'entity.not_found', { entity }) : new HttpError(404, 'not_found');

/** 422 for one field. */
export function fieldError(field: string, message: string, key: MessageKey = 'validation.general') {
  return new HttpError(422, key, {}, { [field]: [message] });
}

function humanLabel(field: string): string {
  const s = field.replace(/_uuid$/, '').replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** zod issues -> 422 `{message, errors: {field: [messages]}}`. */
export function validationError(error: z.ZodError): HttpError {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : '_';
    let message = issue.message;
    // zod's own defaults (schemas without a field-specific error) get the spec's wording.
    if (/^Invalid input|^Invalid option|^Too (big|small)|^Unrecognized key|^Invalid/.test(message)) {
      const label = humanLabel(String(issue.path[issue.path.length - 1] ?? 'value'));
      message =
        issue.code === 'invalid_type' && /received undefined/.test(message)
          ? `${label} is required`
          : `Please enter a valid ${label}`;
    }
    (errors[field] ??= []).push(message);
  }
  return new HttpError(422, 'validation.general', {}, errors);
}

/** Parse with a zod schema or throw the 422. */
export function parseOr422<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error);
  return r.data;
}

/** The spec's 'This {entity} is already assigned', on the field that asked for the assignment. */
export function assignedError(field: string, entity: string): HttpError {
  return fieldError(field, `This ${entity} is already assigned`);
}

/**
 * Unique indexes that hold an assignment (one record only may hold the target): their violation, when
 * two requests assign the same thing at the same moment and both passed the check, is the spec's
 * 'This {entity} is already assigned' on the field (apps/server/migrations/0001_init.sql).
 */
const ASSIGNMENT_INDEXES: Record<string, [field: string, entity: string]> = {
  vehicles_device: ['device_imei', 'device'],
  vehicles_gps_device: ['gps_device_imei', 'device'],
  vehicles_driver: ['driver_uuid', 'driver'],
  scheduled_trip_passengers_passenger: ['passenger_uuids', 'passenger'],
};

/** Other unique indexes whose column is not the contract field's name. */
const TAKEN_INDEXES: Record<string, [field: string, label: string]> = {
  devices_imei_key: ['imei', 'IMEI'],
  unknown_devices_imei_key: ['imei', 'IMEI'],
  users_email: ['email', 'email'],
  users_phone: ['phone', 'phone'],
};

/**
 * A unique violation (SQLSTATE 23505) as the 422 a client can act on: always with `errors` naming the
 * field — the assignment message for the assignment indexes, else 'This {field} is already taken' on the
 * column the database names (`Key (col)=(...)`), or on `_` when it names none.
 */
export function uniqueViolationError(err: { constraint?: string; detail?: string }): HttpError {
  const assigned = err.constraint ? ASSIGNMENT_INDEXES[err.constraint] : undefined;
  if (assigned) return assignedError(assigned[0], assigned[1]);
  const known = err.constraint ? TAKEN_INDEXES[err.constraint] : undefined;
  if (known) return fieldError(known[0], `This ${known[1]} is already taken`);
  const column = /^Key \((?:lower\()?"?([a-z_][a-z0-9_]*)"?\)?(?:, [^)]*)?\)=/i.exec(err.detail ?? '')?.[1];
  const field = column && column !== 'uuid' && column !== 'id' ? column : '_';
  return fieldError(field, `This ${field === '_' ? 'value' : field.replace(/_/g, ' ')} is already taken`);
}
