import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Logger, Timers } from '@fleet/core';
import { U1, deviceCommand, location, notification } from '../test/fixtures';
import {
  RealtimeClient,
  realtimeKey,
  type RealtimeClientOptions,
  type WebSocketLike,
} from './realtime-client';

// Messages of the contract (realtime.ts): the client hands out only what fits its event's schema.
const live = (speed: number) => ({ ...location, speed, vehicle_uuid: U1 });

// A real `ws` server in the test process; only the client's intervals are faked.

interface Server {
  wss: WebSocketServer;
  port: number;
  connections: { socket: WebSocket; url: string }[];
  received: unknown[];
  waitForConnection(count: number): Promise<void>;
  waitForMessages(count: number): Promise<void>;
  close(): Promise<void>;
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function startServer(port = 0): Promise<Server> {
  const wss = new WebSocketServer({ port, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const server: Server = {
    wss,
    port: (wss.address() as AddressInfo).port,
    connections: [],
    received: [],
    waitForConnection: (count) => until(() => server.connections.length >= count),
    waitForMessages: (count) => until(() => server.received.length >= count),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    server.connections.push({ socket, url: request.url ?? '' });
    socket.on('message', (data) => server.received.push(JSON.parse(String(data))));
  });
  return server;
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    debug: (m) => lines.push(`debug ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

describe('realtimeKey', () => {
  it.each<[string, string | undefined | null, string]>([
    ['notification', 'user-1', 'user-1'],
    ['notification', undefined, 'notification'],
    ['device-location', 'imei-9', 'device-location:imei-9'],
    ['generic-device-location', 'v1', 'generic-device-location:v1'],
    ['command-response', 'imei-9', 'command-response:imei-9'],
    ['device-command-response', 'imei-9', 'command-response:imei-9'],
    ['device-command-response', null, 'command-response'],
    ['pong', undefined, 'pong'],
  ])('%s %j -> %s', (event, path, expected) => {
    expect(realtimeKey(event, path)).toBe(expected);
  });
});

describe('RealtimeClient against a real ws server', () => {
  let server: Server;
  let clients: RealtimeClient[];
  const make = (overrides: Partial<RealtimeClientOptions> = {}) => {
    const client = new RealtimeClient({
      baseUrl: `http://127.0.0.1:${server.port}`,
      firstId: 'company-1',
      secondId: 'user-1',
      createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
      ...overrides,
    });
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    server = await startServer();
    clients = [];
  });

  afterEach(async () => {
    for (const client of clients) client.close();
    await server.close();
    vi.useRealTimers();
  });

  it('connects to /ws/{first}/{second}?token= and pings every 30 s once open', async () => {
    const client = make({ token: 'secret' });
    const states: string[] = [];
    client.onStateChange((s) => states.push(s));
    expect(client.connect()).toBe(true);
    expect(client.connect()).toBe(true); // no second socket
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    expect(server.connections.map((c) => c.url)).toEqual(['/ws/company-1/user-1?token=secret']);

    vi.advanceTimersByTime(29_999);
    await new Promise((r) => setTimeout(r, 20));
    expect(server.received).toEqual([]);
    vi.advanceTimersByTime(1);
    await server.waitForMessages(1);
    vi.advanceTimersByTime(30_000);
    await server.waitForMessages(2);
    expect(server.received).toEqual([{ event: 'ping' }, { event: 'ping' }]);
    expect(states).toEqual(['connecting', 'open']);
    expect(server.connections).toHaveLength(1);
  });

  it('makes no connection without the first identifier', async () => {
    const logger = recordingLogger();
    const createSocket = vi.fn();
    const client = make({ firstId: '', createSocket, logger });
    expect(client.connect()).toBe(false);
    expect(make({ firstId: null, createSocket }).connect()).toBe(false);
    expect(make({ firstId: undefined, createSocket }).connect()).toBe(false);
    expect(createSocket).not.toHaveBeenCalled();
    expect(client.state).toBe('idle');
    expect(logger.lines).toEqual(['warn realtime: no first identifier, not connecting']);
  });

  it('republishes events under their keys; pong accepted; bad messages and throwing listeners only logged', async () => {
    const logger = recordingLogger();
    const client = make({ logger });
    const got: [string, unknown][] = [];
    client.on('device-location:v1', (data) => got.push(['location', (data as { speed: number }).speed]));
    client.on('generic-device-location:v1', (data) =>
      got.push(['generic', (data as { speed: number }).speed]),
    );
    client.on('user-7', (data, message) =>
      got.push(['notification', [(data as { uuid: string }).uuid, message.event]]),
    );
    client.on('command-response:imei-1', (data, message) =>
      got.push([`command via ${message.event}`, (data as { uuid: string }).uuid]),
    );
    client.on('command-response:imei-1', () => {
      throw new Error('listener broke');
    });
    const off = client.on('device-location:v1', () => got.push(['removed', null]));
    off();
    off(); // unsubscribing twice is harmless
    client.connect();
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    const socket = server.connections[0]!.socket;
    socket.send(JSON.stringify({ event: 'device-location', path: 'v1', data: live(1) }));
    socket.send(JSON.stringify({ event: 'generic-device-location', path: 'v1', data: live(2) }));
    socket.send(JSON.stringify({ event: 'notification', path: 'user-7', data: notification }));
    socket.send(JSON.stringify({ event: 'device-command-response', path: 'imei-1', data: deviceCommand }));
    socket.send(JSON.stringify({ event: 'command-response', path: 'imei-1', data: deviceCommand }));
    socket.send(JSON.stringify({ event: 'pong' }));
    socket.send('this is not json');
    socket.send(JSON.stringify({ event: 'device-location', path: 'nobody-listens', data: live(0) }));
    socket.send(Buffer.from(JSON.stringify({ event: 'device-location', path: 'v1', data: live(3) })));
    await until(() => got.length >= 6 && client.pongCount === 1);
    expect(got).toEqual([
      ['location', 1],
      ['generic', 2],
      ['notification', [notification.uuid, 'notification']],
      ['command via device-command-response', deviceCommand.uuid],
      ['command via command-response', deviceCommand.uuid],
      ['location', 3],
    ]);
    expect(logger.lines).toContain('warn realtime: ignored malformed message (not JSON)');
    expect(client.droppedCount).toBe(1);
    expect(
      logger.lines.filter((l) => l === 'error realtime: listener for command-response:imei-1 failed'),
    ).toHaveLength(2);
  });

  it('a batch frame (array) is handed out message by message, in order; bad members dropped and counted', async () => {
    const logger = recordingLogger();
    const client = make({ logger });
    const got: unknown[] = [];
    client.on('device-location:v1', (data) => got.push((data as { speed: number }).speed));
    client.on('device-location:v2', (data) => got.push((data as { speed: number }).speed));
    client.connect();
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    const socket = server.connections[0]!.socket;
    socket.send(
      JSON.stringify([
        { event: 'device-location', path: 'v1', data: live(1) },
        { event: 'device-location', path: 'v2', data: live(2) },
        { path: 'no event' },
        { event: 'pong' },
        { event: 'device-location', path: 'v1', data: live(3) },
      ]),
    );
    await until(() => got.length >= 3);
    expect(got).toEqual([1, 2, 3]);
    expect(client.pongCount).toBe(1);
    expect(client.droppedCount).toBe(1);
    expect(logger.lines).toContain('warn realtime: ignored malformed message (outside the contract)');
  });

  it('parses with the contract: what it rejects is dropped and counted, never handed out', async () => {
    const logger = recordingLogger();
    const client = make({ logger });
    const speeds: number[] = [];
    client.on('device-location:v1', (_data, message) => {
      if (message.event === 'device-location') speeds.push(message.data.speed);
    });
    client.connect();
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    const socket = server.connections[0]!.socket;
    socket.send(JSON.stringify({ event: 'device-location', path: 'v1', data: live(-5) }));
    socket.send(
      JSON.stringify([
        { event: 'device-location', path: 'v1', data: { ...live(1), speed: 'fast' } },
        { event: 'device-location', path: 'v1', data: live(12) },
        { event: 'hello', path: 'v1', data: live(13) },
      ]),
    );
    await until(() => speeds.length >= 1);
    expect(speeds).toEqual([12]);
    expect(client.droppedCount).toBe(3);
    expect(logger.lines).toContain('warn realtime: ignored malformed message (outside the contract)');
  });

  it('on close stops the ping and retries every 15 s until open', async () => {
    const logger = recordingLogger();
    const client = make({ logger });
    client.connect();
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    const port = server.port;

    await server.close();
    await until(() => client.state === 'reconnecting');
    vi.advanceTimersByTime(30_000); // no ping while closed: nothing throws, nothing is sent
    expect(client.send({ event: 'ping' })).toBe(false);

    // Attempts while the server is down fail and keep retrying.
    vi.advanceTimersByTime(15_000);
    await until(() => logger.lines.includes('error realtime: socket error'));
    await until(() => client.state === 'reconnecting');

    server = await startServer(port);
    vi.advanceTimersByTime(15_000);
    await server.waitForConnection(1);
    await until(() => client.state === 'open');

    // Once open the reconnect interval is cleared: more time brings pings, not new sockets.
    vi.advanceTimersByTime(60_000);
    await server.waitForMessages(2);
    expect(server.connections).toHaveLength(1);
    expect(server.received).toEqual([{ event: 'ping' }, { event: 'ping' }]);
  });

  it('reconnectNow dials at once while reconnecting, and only then', async () => {
    const client = make();
    expect(client.reconnectNow()).toBe(false); // never connected: nothing to resume
    client.connect();
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    expect(client.reconnectNow()).toBe(false); // open: nothing to do
    const port = server.port;

    await server.close();
    await until(() => client.state === 'reconnecting');
    server = await startServer(port);
    // No 15 s wait: the network is back, the client dials now; a second call while dialling is ignored.
    expect(client.reconnectNow()).toBe(true);
    expect(client.reconnectNow()).toBe(false);
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    expect(server.connections).toHaveLength(1);
    // The retry interval was stopped by the open: more time opens no second socket.
    vi.advanceTimersByTime(45_000);
    await new Promise((r) => setTimeout(r, 30));
    expect(server.connections).toHaveLength(1);

    client.close();
    expect(client.reconnectNow()).toBe(false); // a deliberate close stays closed
  });

  it('deliberate close stops ping and reconnect', async () => {
    const client = make();
    client.connect();
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    client.close();
    expect(client.state).toBe('closed');
    const socket = server.connections[0]!.socket;
    await until(() => socket.readyState === WebSocket.CLOSED);
    vi.advanceTimersByTime(120_000);
    await new Promise((r) => setTimeout(r, 30));
    expect(server.connections).toHaveLength(1);
    expect(server.received).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    client.close(); // closing twice is harmless

    // connect() after a deliberate close opens a new connection.
    client.connect();
    await server.waitForConnection(2);
    await until(() => client.state === 'open');
  });

  it('survives a socket factory that throws and retries with injected timers', async () => {
    const intervals: { callback: () => void; ms: number; cleared: boolean }[] = [];
    const timers: Timers = {
      setInterval: (callback, ms) => {
        const entry = { callback, ms, cleared: false };
        intervals.push(entry);
        return entry;
      },
      clearInterval: (handle) => {
        (handle as { cleared: boolean }).cleared = true;
      },
      setTimeout: () => undefined,
      clearTimeout: () => undefined,
    };
    const logger = recordingLogger();
    let attempts = 0;
    const states: string[] = [];
    const client = make({
      timers,
      logger,
      createSocket: (url) => {
        attempts += 1;
        if (attempts === 1) throw new SyntaxError('bad url');
        return new WebSocket(url) as unknown as WebSocketLike;
      },
    });
    client.onStateChange((s) => states.push(s));
    const unsubscribeThrowing = client.onStateChange(() => {
      throw new Error('state listener broke');
    });
    client.connect();
    expect(client.state).toBe('reconnecting');
    expect(logger.lines).toContain('error realtime: could not create socket');
    expect(intervals).toHaveLength(1);
    expect(intervals[0]!.ms).toBe(15_000);
    unsubscribeThrowing();

    intervals[0]!.callback();
    // While the new socket is still connecting, a tick does not open another one.
    intervals[0]!.callback();
    expect(attempts).toBe(2);
    await server.waitForConnection(1);
    await until(() => client.state === 'open');
    expect(intervals[0]!.cleared).toBe(true);
    expect(intervals[1]!.ms).toBe(30_000);
    // A stale tick after open does nothing but stop itself.
    intervals[0]!.callback();
    expect(attempts).toBe(2);
    intervals[1]!.callback();
    await server.waitForMessages(1);
    expect(states).toEqual(['reconnecting', 'open']);
    expect(logger.lines).toContain('error realtime: state listener failed');
  });

  it('logs a failing send and a failing close', async () => {
    const logger = recordingLogger();
    const fake = {
      readyState: 1,
      send: () => {
        throw new Error('send broke');
      },
      close: () => {
        throw new Error('close broke');
      },
      onopen: null,
      onclose: null,
      onerror: null,
      onmessage: null,
    } as WebSocketLike;
    const client = make({ logger, createSocket: () => fake });
    client.connect();
    expect(client.send({ event: 'ping' })).toBe(false);
    client.close();
    expect(logger.lines).toEqual(['error realtime: send failed', 'error realtime: error while closing']);
  });
});
