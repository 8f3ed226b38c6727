import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { endpoints, type EndpointDef } from '@fleet/api-client';

function schemaOf(s: z.ZodType | undefined, io: 'input' | 'output'): Record<string, unknown> | undefined {
  if (!s) return undefined;
  try {
    return z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<
      string,
      unknown
    >;
  } catch {
    return { description: 'schema not representable in JSON Schema' };
  }
}

/** OpenAPI 3 document generated from the @fleet/api-client endpoint table (never written by hand). */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, raw] of Object.entries(endpoints)) {
    const e = raw as EndpointDef;
    const path = e.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    const parameters: Record<string, unknown>[] = [];
    for (const [where, schema] of [
      ['path', e.params],
      ['query', e.query],
    ] as const) {
      const js = schemaOf(schema, 'input') as
        { properties?: Record<string, unknown>; required?: string[] } | undefined;
      for (const [pname, ps] of Object.entries(js?.properties ?? {})) {
        parameters.push({
          name: pname,
          in: where,
          required: where === 'path' || (js?.required ?? []).includes(pname),
          schema: ps,
        });
      }
    }
    if (e.auth === 'company') {
      parameters.push({
        name: 'X-Transport-Uuid',
        in: 'header',
        required: true,
        schema: { type: 'string', format: 'uuid' },
      });
    }
    parameters.push({
      name: 'X-Locale',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['en', 'ar'] },
    });
    const op: Record<string, unknown> = {
      operationId: name,
      summary: e.summary,
      tags: [name.split('.')[0]],
      parameters,
      responses: {
        '200': {
          description: 'OK',
          content:
            e.responseType === 'blob'
              ? { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }
              : { 'application/json': { schema: schemaOf(e.response, 'output') } },
        },
        ...(e.auth !== 'none' ? { '401': { $ref: '#/components/responses/Unauthenticated' } } : {}),
        ...(e.auth === 'company' ? { '403': { $ref: '#/components/responses/Forbidden' } } : {}),
        '422': { $ref: '#/components/responses/Invalid' },
      },
    };
    if (e.auth !== 'none') op.security = [{ bearer: [] }];
    if (e.body) {
      op.requestBody = {
        required: true,
        content:
          e.bodyType === 'multipart'
            ? {
                'multipart/form-data': {
                  schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
                },
              }
            : { 'application/json': { schema: schemaOf(e.body, 'input') } },
      };
    }
    (paths[path] ??= {})[e.method.toLowerCase()] = op;
  }
  const message = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
  return {
    openapi: '3.0.3',
    info: {
      title: 'fleet API',
      version: '1',
      description: 'API v1 of the fleet tracking portal, generated from @fleet/api-client.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      responses: {
        Unauthenticated: {
          description: 'Missing, expired or forged token',
          content: { 'application/json': { schema: message } },
        },
        Forbidden: {
          description: 'Outside the user\u2019s company or scope',
          content: { 'application/json': { schema: message } },
        },
        Invalid: {
          description: 'Invalid input',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  message: { type: 'string' },
                  errors: {
                    type: 'object',
                    additionalProperties: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

const DOCS_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fleet API v1</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:70rem}h2{margin-top:2rem}code{background:#f3f4f6;padding:0 .25rem}
details{border:1px solid #e5e7eb;border-radius:6px;margin:.25rem 0;padding:.25rem .5rem}summary{cursor:pointer}
.m{display:inline-block;min-width:4rem;font-weight:600}pre{background:#f9fafb;overflow:auto;padding:.5rem;max-height:24rem}</style>
</head><body><h1>fleet API v1</h1><p>Generated from the zod contract. Raw document: <a href="/v1/openapi.json">/v1/openapi.json</a>.
Filter: <input id="q" placeholder="vehicles"></p><div id="list">Loading…</div>
<script>
fetch('/v1/openapi.json').then(r=>r.json()).then(doc=>{const list=document.getElementById('list');
const render=(q)=>{list.textContent='';for(const [path,ops] of Object.entries(doc.paths)){for(const [m,op] of Object.entries(ops)){
if(q&&!(path+op.summary).toLowerCase().includes(q))continue;const d=document.createElement('details');const s=document.createElement('summary');
const mm=document.createElement('span');mm.className='m';mm.textContent=m.toUpperCase();const c=document.createElement('code');c.textContent=path;
s.append(mm,c,document.createTextNode(' '+op.summary));const pre=document.createElement('pre');
pre.textContent=JSON.stringify({parameters:op.parameters,requestBody:op.requestBody,responses:op.responses},null,2);d.append(s,pre);list.append(d);}}};
render('');document.getElementById('q').addEventListener('input',e=>render(e.target.value.toLowerCase()));});
</script></body></html>`;

export function registerOpenApi(app: FastifyInstance): void {
  let cached: Record<string, unknown> | undefined;
  app.get('/v1/openapi.json', async () => (cached ??= buildOpenApi()));
  app.get('/v1/docs', async (_req, reply) =>
    reply.header('Content-Type', 'text/html; charset=utf-8').send(DOCS_HTML),
  );
}
