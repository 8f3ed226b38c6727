import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { RealtimeHub } from './hub';
import { registerWebSocket } from './ws';

/**
 * The realtime part: the hub that takes `realtime.<company>` messages from the bus and the WebSocket
 * endpoint that hands them to the signed-in clients allowed to see them (ws.ts, hub.ts).
 *
 * It is an API part (embedded and the cluster's api role) with no switch of its own: the socket is how
 * the portal sees live positions, command answers and notifications, and a process that should not
 * hold sockets is a gateway or worker, which does not take the part. The hub is put in `app.ctx.hub`
 * for the API's own use (a vehicle that changes scope drops its cached scope); without the part that
 * is undefined and nothing is delivered. Stopping is this part's onClose: the hub sends what it has
 * queued and closes the sockets (1001) after the parts registered later (gateway, pipeline) have
 * stopped publishing.
 */
const realtimePart: PartPlugin = async (app, { storage, bus }) => {
  const hub = new RealtimeHub(storage.db, bus);
  app.ctx.hub = hub;
  app.addHook('onClose', async () => {
    hub.close();
    if (app.ctx.hub === hub) app.ctx.hub = undefined;
  });
  await registerWebSocket(app, hub);
};

export default fp(realtimePart, { name: 'realtime', decorators: { fastify: ['ctx'] }, fastify: '5.x' });
