import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder the fault tests put between the cluster nodes and NATS or PostgreSQL, to restart
 * those services as the nodes see it without touching the shared system services: `cut()` resets
 * every open connection and refuses new ones (a server that went away), `restore()` lets connections
 * through again on the same port (the server is back). Nodes must reconnect by themselves.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly open = new Set<Socket>();
  private down = false;
  /** Connections accepted and forwarded / refused while cut. */
  readonly stats = { forwarded: 0, refused: 0, cuts: 0 };

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  /** Listens on 127.0.0.1 (random port) and resolves with the port. */
  async start(): Promise<number> {
    const server = createServer((client) => {
      if (this.down) {
        this.stats.refused++;
        client.resetAndDestroy();
        return;
      }
      this.stats.forwarded++;
      const upstream = connect({ port: this.targetPort, host: this.targetHost });
      client.setNoDelay(true);
      upstream.setNoDelay(true);
      this.open.add(client);
      this.open.add(upstream);
      const end = () => {
        for (const s of [client, upstream]) {
          this.open.delete(s);
          s.destroy();
        }
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    this.server = server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    if (!addr || typeof addr === 'string') throw new Error('proxy: no port');
    return addr.port;
  }

  /** Resets every connection through the proxy and refuses new ones until `restore()`. */
  cut(): void {
    this.down = true;
    this.stats.cuts++;
    for (const s of this.open) s.resetAndDestroy();
    this.open.clear();
  }

  restore(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
