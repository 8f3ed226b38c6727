/**
 * OpenAPI 3.1 document of API v1, generated from the endpoint table and its zod schemas (never written by
 * hand). The server serves it at /v1/openapi.json.
 *
 * Request parts (params, query, body) are described as the client sends them (zod "input" side), answers
 * as the server produces them ("output" side). Every authenticated call declares the bearer scheme; calls
 * scoped to a company also declare the X-Transport-Uuid header.
 */
import { z } from 'zod';
import { endpointNames, endpoints, type EndpointDef } from './endpoints';
import { apiErrorBodySchema } from './schemas/common';

type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  title?: string;
  version?: string;
  description?: string;
  /** Server URLs, e.g. [{url: 'http://127.0.0.1:8080'}]. */
  servers?: { url: string; description?: string }[];
}

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** One OpenAPI parameter per property of an object schema. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

/** Converts '/v1/vehicles/:uuid' to '/v1/vehicles/{uuid}'. */
export function openApiPath(template: string): string {
  return template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
});

function operation(name: string, def: EndpointDef): JsonSchema {
  const params = [...parameters(def.params, 'path'), ...parameters(def.query, 'query')];
  if (def.auth === 'company') {
    params.push({
      name: 'X-Transport-Uuid',
      in: 'header',
      required: true,
      schema: { type: 'string', format: 'uuid' },
      description: 'Transport company the call acts in',
    });
  }
  const op: JsonSchema = {
    operationId: name,
    summary: def.summary,
    tags: [name.split('.')[0]],
    parameters: params,
    responses: {
      '200': {
        description: 'Success',
        content:
          def.responseType === 'blob'
            ? { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }
            : { 'application/json': { schema: toSchema(def.response, 'output') } },
      },
      ...(def.auth === 'none' ? {} : { '401': errorResponse('Missing, expired or revoked token') }),
      ...(def.auth === 'company' ? { '403': errorResponse('Outside the user\u2019s scope') } : {}),
      ...(def.params ? { '404': errorResponse('Not found') } : {}),
      ...(def.body || def.query ? { '422': errorResponse('Invalid input; `errors` names each field') } : {}),
    },
  };
  if (def.auth !== 'none') op.security = [{ bearer: [] }];
  if (def.bodyType === 'multipart') {
    op.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', format: 'binary' } },
            required: ['file'],
          },
        },
      },
    };
  } else if (def.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: toSchema(def.body, 'input') } },
    };
  }
  return op;
}

/** The OpenAPI 3.1 document of every endpoint in the table. */
export function buildOpenApiDocument(info: OpenApiInfo = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const table = endpoints as Record<string, EndpointDef>;
  for (const name of endpointNames) {
    const def = table[name] as EndpointDef;
    const path = openApiPath(def.path);
    paths[path] ??= {};
    (paths[path] as Record<string, JsonSchema>)[def.method.toLowerCase()] = operation(name, def);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'Fleet API',
      version: info.version ?? '1.0.0',
      ...(info.description ? { description: info.description } : {}),
    },
    ...(info.servers ? { servers: info.servers } : {}),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { ApiError: toSchema(apiErrorBodySchema, 'output') },
    },
  };
}
