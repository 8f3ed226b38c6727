import { subjectMatches, type Bus, type BusHandler, type SubscribeOptions } from '../realtime/bus';

/**
 * A bus that sends some subject patterns to a `local` bus (in-process) and the rest to `remote`
 * (NATS). A worker uses it so the pipeline keeps subscribing to `locations.*.*` exactly as in the
 * embedded mode, but hears the batches its own worker just stored (never the raw JetStream stream),
 * while whatever the pipeline publishes (`realtime.*` notifications) goes to every API node.
 */
export class RoutedBus implements Bus {
  constructor(
    private readonly local: Bus,
    private readonly remote: Bus,
    private readonly localPatterns: readonly string[],
  ) {}

  private isLocal(subjectOrPattern: string): boolean {
    const first = subjectOrPattern.split('.', 1)[0];
    return this.localPatterns.some(
      (p) => subjectMatches(p, subjectOrPattern) || p.split('.', 1)[0] === first,
    );
  }

  publish<T>(subject: string, message: T): Promise<void> {
    return (this.isLocal(subject) ? this.local : this.remote).publish(subject, message);
  }

  subscribe<T>(pattern: string, handler: BusHandler<T>, options?: SubscribeOptions): () => void {
    return (this.isLocal(pattern) ? this.local : this.remote).subscribe(pattern, handler, options);
  }

  async close(): Promise<void> {
    await this.local.close();
  }
}

/**
 * The gateway role's bus: everything goes to NATS except the gateway's own post-store
 * `locations.*` announcement, which is dropped: in the gateway role "store" already WAS the
 * JetStream publish of those very records (see {@link jetStreamIngest}), and the worker that stores
 * them announces them to its pipeline.
 */
export class GatewayBus implements Bus {
  dropped = 0;
  constructor(private readonly remote: Bus) {}

  publish<T>(subject: string, message: T): Promise<void> {
    if (subject.startsWith('locations.')) {
      this.dropped++;
      return Promise.resolve();
    }
    return this.remote.publish(subject, message);
  }

  subscribe<T>(pattern: string, handler: BusHandler<T>, options?: SubscribeOptions): () => void {
    return this.remote.subscribe(pattern, handler, options);
  }

  async close(): Promise<void> {
    /* the remote bus is closed by its owner */
  }
}
