import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { portalDist, registerPortal } from './portal';

declare module 'fastify' {
  interface FastifyInstance {
    /** The folder of the built portal this instance serves, or null when it is not built. */
    portal: string | null;
  }
}

/**
 * The portal part: the built portal from the same origin as the API (see portal.ts). When the portal
 * is not built the process serves the API only and `app.portal` is null (the entry says so).
 */
const portalPart: PartPlugin = async (app, { config }) => {
  const dist = portalDist(config);
  app.decorate('portal', (await registerPortal(app, dist)) ? dist : null);
};

export default fp(portalPart, { name: 'portal', decorators: { fastify: ['ctx'] }, fastify: '5.x' });
