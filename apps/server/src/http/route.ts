import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { endpoints, type EndpointDef } from '@fleet/api-client';
import { forbidden } from './errors';
import { parseOr422 } from './errors';
import { requirePrincipal, requireTenant } from '../app';
import type { Principal } from '../auth/session';
import type { Tenant } from '../tenancy/context';

export type EndpointName = keyof typeof endpoints;
type Ep<N extends EndpointName> = (typeof endpoints)[N];
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerArgs<N extends EndpointName> {
  req: FastifyRequest;
  reply: FastifyReply;
  params: Out<Ep<N> extends { params: infer P } ? P : undefined>;
  query: Out<Ep<N> extends { query: infer Q } ? Q : undefined>;
  body: Out<Ep<N> extends { body: infer B } ? B : undefined>;
  /** Present for 'session' and 'company' endpoints. */
  principal: Ep<N>['auth'] extends 'none' ? null : Principal;
  /** Present for 'company' endpoints. */
  tenant: Ep<N>['auth'] extends 'company' ? Tenant : null;
}

/**
 * An answer the handler has already written as JSON text (the location history builds its pages
 * from the database's text without making 500 objects to serialise again). Only for routes marked
 * `trustedResponse`; under tests it is parsed and must equal its contract-parsed form exactly.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** What a handler returns: the response schema's input (Dates already ISO strings), a raw reply or JSON text. */
export type HandlerResult<N extends EndpointName> = z.input<Ep<N>['response']> | FastifyReply | JsonText;

export interface RouteOptions {
  /** Permission the tenant must hold (company endpoints). */
  permission?: string;
  /** Body limit override (uploads). */
  bodyLimit?: number;
  /**
   * The handler builds every field of its answer itself from typed columns (no row spread), so
   * the per-request response parse is skipped: for big pages (500 locations, the live list of a
   * fleet) it costs more than the query. Under vitest, and with RESPONSE_VALIDATION=strict, these
   * answers are still parsed and must equal their parsed form exactly, so the tests keep proving
   * them against the contract.
   */
  trustedResponse?: boolean;
}

/** Whether answers are parsed with their response schema (on unless RESPONSE_VALIDATION=off). */
const validateResponses = process.env.RESPONSE_VALIDATION !== 'off';
/** Whether trusted answers are parsed too (tests, or RESPONSE_VALIDATION=strict). */
const validateTrusted = process.env.RESPONSE_VALIDATION === 'strict' || Boolean(process.env.VITEST);

/**
 * Register one endpoint of the @fleet/api-client table: method and path from the contract, params,
 * query and body parsed with its zod schemas (422 on failure), authentication by its `auth` level,
 * an optional permission, and the answer parsed with the response schema, so a field outside the
 * contract (an internal id) can never leave the server.
 *
 * The gateway and pipeline register their endpoints the same way: `route(app, 'reports.fuel', ...)`.
 */
export function route<N extends EndpointName>(
  app: FastifyInstance,
  name: N,
  handler: (args: HandlerArgs<N>) => Promise<HandlerResult<N>>,
  options: RouteOptions = {},
): void {
  const def = endpoints[name] as EndpointDef;
  app.route({
    method: def.method,
    url: def.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async (req, reply) => {
      let principal: Principal | null = null;
      let tenant: Tenant | null = null;
      if (def.auth === 'session') principal = await requirePrincipal(req);
      if (def.auth === 'company') ({ principal, tenant } = await requireTenant(req));
      if (options.permission && !tenant?.permissions.includes(options.permission)) throw forbidden();
      const params = def.params ? parseOr422(def.params, req.params) : undefined;
      const query = def.query ? parseOr422(def.query, req.query ?? {}) : undefined;
      const body =
        def.body && def.bodyType !== 'multipart' ? parseOr422(def.body, req.body ?? {}) : undefined;
      const result = await handler({ req, reply, params, query, body, principal, tenant } as HandlerArgs<N>);
      if (result === reply) return reply;
      if (result instanceof JsonText) {
        if (!options.trustedResponse) throw new Error(`${name} answered JSON text without trustedResponse`);
        if (validateTrusted) checkTrusted(name, def, result.text);
        return reply.type('application/json; charset=utf-8').send(result.text);
      }
      if (!validateResponses || def.responseType === 'blob') return result;
      if (options.trustedResponse) {
        // What leaves is the serialised object: under tests that text must be the contract's form.
        if (validateTrusted) checkTrusted(name, def, JSON.stringify(result));
        return result;
      }
      const parsed = def.response.safeParse(result);
      if (!parsed.success) {
        req.log.error(
          { issues: parsed.error.issues.slice(0, 5), endpoint: name },
          'response outside contract',
        );
        throw new Error(
          `response of ${name} does not match its schema: ${parsed.error.message.slice(0, 500)}`,
        );
      }
      return parsed.data;
    },
  });
}

/**
 * A trusted answer's JSON text parsed with the response schema must give back exactly what it holds:
 * no field outside the contract, none left for a default or a transform to fill.
 */
function checkTrusted(name: string, def: EndpointDef, text: string): void {
  const raw: unknown = JSON.parse(text);
  const parsed = def.response.safeParse(raw);
  if (!parsed.success || !isDeepStrictEqual(parsed.data, raw))
    throw new Error(
      `JSON text of ${name} does not match its schema: ${parsed.error?.message.slice(0, 500) ?? 'fields outside the contract or not in its form'}`,
    );
}

/** ISO string with offset for the contract's timestamps (null stays null). */
export function iso(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  return (d instanceof Date ? d : new Date(d)).toISOString();
}
