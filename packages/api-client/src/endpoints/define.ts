/**
 * The building blocks of the endpoint table: what one entry is, the identity helper that keeps its literal
 * types, and the six-call CRUD shape of a managed resource. Changes here change every group.
 */
import { z } from 'zod';
import {
  dataEnvelope,
  messageResponseSchema,
  paginated,
  statusInputSchema,
  uuidParamsSchema,
} from '../schemas/common';

export const API_PREFIX = '/v1';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AuthLevel = 'none' | 'session' | 'company';

export interface EndpointDef {
  method: HttpMethod;
  /** Template with ':name' parameters, e.g. '/v1/vehicles/:uuid'. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** 'multipart': the body is FormData with a `file` field, not JSON (uploads). */
  bodyType?: 'json' | 'multipart';
  response: z.ZodType;
  /** 'blob': the answer is a file, not JSON. */
  responseType?: 'json' | 'blob';
  auth: AuthLevel;
  summary: string;
}

/** Keeps the literal types of one entry (method, path, auth) while checking it is an EndpointDef. */
export function endpoint<const E extends EndpointDef>(definition: E): E {
  return definition;
}

/** A file answer (GET /v1/file/...). The client gives a Blob; the server streams the file. */
export const binaryResponseSchema = z.custom<Blob>((value) => value instanceof Blob, {
  error: 'Expected a file',
});

// ---------------------------------------------------------------------------------------------------------
// CRUD groups
// ---------------------------------------------------------------------------------------------------------

export type Crud<
  N extends string,
  R extends z.ZodType,
  I extends z.ZodType,
  Q extends z.ZodType,
  S extends z.ZodType,
> = Record<
  `${N}.list`,
  {
    method: 'GET';
    path: string;
    query: Q;
    response: ReturnType<typeof paginated<R>>;
    auth: 'company';
    summary: string;
  }
> &
  Record<
    `${N}.create`,
    {
      method: 'POST';
      path: string;
      body: I;
      response: ReturnType<typeof dataEnvelope<R>>;
      auth: 'company';
      summary: string;
    }
  > &
  Record<
    `${N}.show`,
    {
      method: 'GET';
      path: string;
      params: typeof uuidParamsSchema;
      response: ReturnType<typeof dataEnvelope<R>>;
      auth: 'company';
      summary: string;
    }
  > &
  Record<
    `${N}.update`,
    {
      method: 'PUT';
      path: string;
      params: typeof uuidParamsSchema;
      body: I;
      response: ReturnType<typeof dataEnvelope<R>>;
      auth: 'company';
      summary: string;
    }
  > &
  Record<
    `${N}.delete`,
    {
      method: 'DELETE';
      path: string;
      params: typeof uuidParamsSchema;
      response: typeof messageResponseSchema;
      auth: 'company';
      summary: string;
    }
  > &
  Record<
    `${N}.status`,
    {
      method: 'PATCH';
      path: string;
      params: typeof uuidParamsSchema;
      body: ReturnType<typeof statusInputSchema<S>>;
      response: ReturnType<typeof dataEnvelope<R>>;
      auth: 'company';
      summary: string;
    }
  >;

/**
 * list (GET /v1/R), create (POST /v1/R), show / update / delete (GET, PUT, DELETE /v1/R/:uuid) and status
 * (PATCH /v1/R/:uuid/status {status}) of one managed resource.
 */
export function crud<
  const N extends string,
  R extends z.ZodType,
  I extends z.ZodType,
  Q extends z.ZodType,
  S extends z.ZodType,
>(
  name: N,
  resource: string,
  label: string,
  s: { item: R; input: I; query: Q; status: S },
): Crud<N, R, I, Q, S> {
  const path = `${API_PREFIX}/${resource}`;
  const one = `${path}/:uuid`;
  return {
    [`${name}.list`]: {
      method: 'GET',
      path,
      query: s.query,
      response: paginated(s.item),
      auth: 'company',
      summary: `List ${label}`,
    },
    [`${name}.create`]: {
      method: 'POST',
      path,
      body: s.input,
      response: dataEnvelope(s.item),
      auth: 'company',
      summary: `Create a ${label} record`,
    },
    [`${name}.show`]: {
      method: 'GET',
      path: one,
      params: uuidParamsSchema,
      response: dataEnvelope(s.item),
      auth: 'company',
      summary: `Details of a ${label} record`,
    },
    [`${name}.update`]: {
      method: 'PUT',
      path: one,
      params: uuidParamsSchema,
      body: s.input,
      response: dataEnvelope(s.item),
      auth: 'company',
      summary: `Update a ${label} record`,
    },
    [`${name}.delete`]: {
      method: 'DELETE',
      path: one,
      params: uuidParamsSchema,
      response: messageResponseSchema,
      auth: 'company',
      summary: `Delete a ${label} record`,
    },
    [`${name}.status`]: {
      method: 'PATCH',
      path: `${one}/status`,
      params: uuidParamsSchema,
      body: statusInputSchema(s.status),
      response: dataEnvelope(s.item),
      auth: 'company',
      summary: `Change the status of a ${label} record`,
    },
  } as Crud<N, R, I, Q, S>;
}
