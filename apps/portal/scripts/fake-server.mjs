// A stand-in API + WebSocket server with the contract's shapes (fake-api.mjs), used by the live-map
// benchmark: /v1 answers and a /ws/{company}/{user} socket that moves every vehicle once per second.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { answer, location, uuid } from './fake-api.mjs';

export function startFakeServer({ port, vehicles }) {
  let sent = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const out = answer(req.method ?? 'GET', url.pathname, { vehicles, now: () => Date.now() });
    res.writeHead(out.status, { 'content-type': out.contentType });
    res.end(out.body);
  });
  const wss = new WebSocketServer({ server, path: undefined });
  let tick = 0;
  const timer = setInterval(() => {
    tick += 1;
    if (wss.clients.size === 0) return;
    const now = Date.now();
    for (let i = 0; i < vehicles; i += 1) {
      const id = uuid(3, i + 1);
      const frame = JSON.stringify({
        event: 'device-location',
        path: id,
        data: { ...location(i, tick, now), vehicle_uuid: id },
      });
      for (const client of wss.clients) client.send(frame);
      sent += 1;
    }
  }, 1000);
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      if (String(data).includes('ping')) socket.send(JSON.stringify({ event: 'pong' }));
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () =>
      resolve({
        sent: () => sent,
        close: () => {
          clearInterval(timer);
          for (const client of wss.clients) client.terminate();
          wss.close();
          server.close();
        },
      }),
    );
  });
}
