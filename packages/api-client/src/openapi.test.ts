import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpointNames, endpoints, type EndpointDef } from './endpoints';
import { buildOpenApiDocument, openApiPath } from './openapi';

const table = endpoints as Record<string, EndpointDef>;

describe('zod schemas are representable in JSON Schema', () => {
  // The OpenAPI document is generated from the schemas, so none may need the "any" fallback
  // (except the binary file answer).
  const parts = endpointNames.flatMap((name) => {
    const def = table[name] as EndpointDef;
    return (
      [
        ['params', def.params, 'input'],
        ['query', def.query, 'input'],
        ['body', def.body, 'input'],
        ['response', def.responseType === 'blob' ? undefined : def.response, 'output'],
      ] as const
    )
      .filter(([, schema]) => schema !== undefined)
      .map(([part, schema, io]) => [`${name} ${part}`, schema as z.ZodType, io] as const);
  });
  it.each(parts)('%s', (_label, schema, io) => {
    expect(() => z.toJSONSchema(schema, { io, unrepresentable: 'throw' })).not.toThrow();
  });
});

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument({
    title: 'Fleet',
    version: '1.2.3',
    description: 'd',
    servers: [{ url: 'http://x' }],
  });
  const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;

  it('has one operation per endpoint', () => {
    const operations = Object.values(paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(endpointNames.length);
    expect(doc).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'Fleet', version: '1.2.3', description: 'd' },
    });
  });

  it('describes path, query, header parameters, bodies, answers and security', () => {
    const show = paths['/v1/vehicles/{uuid}']?.get as Record<string, unknown>;
    expect(show.operationId).toBe('vehicles.show');
    expect(show.security).toEqual([{ bearer: [] }]);
    expect(show.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'uuid', in: 'path', required: true }),
        expect.objectContaining({ name: 'X-Transport-Uuid', in: 'header', required: true }),
      ]),
    );
    expect(Object.keys(show.responses as object)).toEqual(['200', '401', '403', '404']);

    const locations = paths['/v1/device-locations/vehicle/locations']?.get as {
      parameters: { name: string; required: boolean }[];
    };
    expect(
      locations.parameters.filter((p) => p.name !== 'X-Transport-Uuid').map((p) => [p.name, p.required]),
    ).toEqual([
      ['vehicle_uuid', true],
      ['from', false],
      ['to', false],
      ['page', false],
      ['limit', false],
    ]);

    const login = paths['/v1/login']?.post as Record<string, unknown>;
    expect(login.security).toBeUndefined();
    expect(login.requestBody).toMatchObject({
      content: { 'application/json': { schema: { type: 'object' } } },
    });
    expect(Object.keys(login.responses as object)).toEqual(['200', '422']);

    const upload = paths['/v1/files/{kind}']?.post as Record<string, unknown>;
    expect(upload.requestBody).toMatchObject({
      content: { 'multipart/form-data': { schema: { required: ['file'] } } },
    });
    const file = paths['/v1/file/{kind}/{name}']?.get as { responses: Record<string, { content: object }> };
    expect(Object.keys(file.responses['200']?.content ?? {})).toEqual(['application/octet-stream']);
  });

  it('works without info', () => {
    expect(buildOpenApiDocument()).toMatchObject({ info: { title: 'Fleet API', version: '1.0.0' } });
    expect(buildOpenApiDocument().servers).toBeUndefined();
  });

  it('converts path templates', () => {
    expect(openApiPath('/v1/file/:kind/:name')).toBe('/v1/file/{kind}/{name}');
  });
});
