/**
 * The message bus between gateway, pipeline and API/WebSocket nodes.
 *
 * Subjects are dot-separated tokens with NATS wildcards (`*` = one token, `>` = the rest), so a
 * NATS JetStream adapter can implement this interface one-to-one later (issue 9): `publish` maps
 * to `js.publish(subject, JSON)` and resolves once persisted; `subscribe` with a `queue` maps to a
 * durable queue-group consumer. The embedded default is {@link InProcessBus}.
 *
 * Subjects used so far (see `subjects`):
 * - `locations.<companyUuid>.<deviceUuid>`: stored location records (gateway -> pipeline)
 * - `realtime.<companyUuid>`: {@link RealtimeEnvelope}s for WebSocket delivery (anyone -> hub)
 * - `commands.<deviceUuid>`: device commands for whichever gateway holds the connection
 */
import type { LocationBatchMessage } from '../pipeline/service/ports';
import type { RealtimeEnvelope } from './hub';

export type BusHandler<T = unknown> = (message: T, subject: string) => void | Promise<void>;

export interface SubscribeOptions {
  /** Queue group: each message goes to one member of the group instead of all subscribers. */
  queue?: string;
}

export interface Bus {
  publish<T>(subject: string, message: T): Promise<void>;
  subscribe<T>(pattern: string, handler: BusHandler<T>, options?: SubscribeOptions): () => void;
  close(): Promise<void>;
}

/**
 * The message of each subject family: what the bus is typed by. The transport (`Bus`) moves any JSON;
 * the product's publishers and subscribers go through {@link publishOn} / {@link subscribeOn} with a
 * {@link subjects} subject or a {@link patterns} pattern, so a message that does not fit its subject
 * is a compile error.
 */
export interface BusMessages {
  /** A device's stored records (gateway -> pipeline). */
  locations: LocationBatchMessage;
  /** One realtime message of the api-client contract with its routing keys (anyone -> hub). */
  realtime: RealtimeEnvelope;
  /** "Send the queued command now" signal for whichever gateway holds the device. */
  commands: { commandId: number };
}
export type BusFamily = keyof BusMessages;

/** A concrete subject of one family (a string, so the transport takes it as is). */
export type Subject<F extends BusFamily> = string & { readonly __subject: F };
/** A subscription pattern covering subjects of one family only. */
export type Pattern<F extends BusFamily> = string & { readonly __pattern: F };

export const subjects = {
  locations: (companyUuid: string, deviceUuid: string) =>
    `locations.${companyUuid}.${deviceUuid}` as Subject<'locations'>,
  realtime: (companyUuid: string) => `realtime.${companyUuid}` as Subject<'realtime'>,
  commands: (deviceUuid: string) => `commands.${deviceUuid}` as Subject<'commands'>,
} as const;

export const patterns = {
  /** Every device's locations (`locations.>`). */
  locations: 'locations.>' as Pattern<'locations'>,
  /** Every company's realtime messages (`realtime.*`). */
  realtime: 'realtime.*' as Pattern<'realtime'>,
  /** Every device's command signals (`commands.*`). */
  commands: 'commands.*' as Pattern<'commands'>,
} as const;

/** Publishes a message on a subject of its family (typed). */
export function publishOn<F extends BusFamily>(
  bus: Bus,
  subject: Subject<F>,
  message: BusMessages[F],
): Promise<void> {
  return bus.publish(subject, message);
}

/** Subscribes to a family's pattern; the handler gets that family's message type. */
export function subscribeOn<F extends BusFamily>(
  bus: Bus,
  pattern: Pattern<F>,
  handler: BusHandler<BusMessages[F]>,
  options?: SubscribeOptions,
): () => void {
  return bus.subscribe(pattern, handler, options);
}

/** NATS subject matching: `*` one token, `>` one or more trailing tokens. */
export function subjectMatches(pattern: string, subject: string): boolean {
  return tokensMatch(pattern.split('.'), subject.split('.'));
}

function tokensMatch(p: readonly string[], s: readonly string[]): boolean {
  for (let i = 0; i < p.length; i++) {
    const tok = p[i];
    if (tok === '>') return s.length > i;
    if (i >= s.length) return false;
    if (tok !== '*' && tok !== s[i]) return false;
  }
  return p.length === s.length;
}

interface Sub {
  pattern: string;
  /** The pattern's tokens, split once. */
  tokens: readonly string[];
  handler: BusHandler;
  queue: string | undefined;
}

/**
 * In-process bus: synchronous fan-out in subscription order, handlers awaited so `publish`
 * resolves after local delivery (errors of one handler are reported to `onError` and do not stop
 * the others). Queue groups deliver round-robin within the group.
 */
export class InProcessBus implements Bus {
  private subs: Sub[] = [];
  private rr = new Map<string, number>();
  private closed = false;

  constructor(private readonly onError: (err: unknown, subject: string) => void = () => undefined) {}

  /*
   * The embedded server publishes every stored record here (pipeline, realtime), so this path stays
   * lean: the subject is split once and the patterns were split at subscribe time (splitting both per
   * subscription per message, with a map and an async closure per target, was a twentieth of all the
   * server allocated in bench:soak's profile).
   */
  async publish<T>(subject: string, message: T): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    const tokens = subject.split('.');
    const targets: Sub[] = [];
    let groups: Map<string, Sub[]> | undefined;
    for (const s of this.subs) {
      if (!tokensMatch(s.tokens, tokens)) continue;
      if (s.queue === undefined) targets.push(s);
      else {
        groups ??= new Map();
        const key = `${s.pattern}|${s.queue}`;
        const members = groups.get(key);
        if (members) members.push(s);
        else groups.set(key, [s]);
      }
    }
    if (groups) {
      for (const [key, members] of groups) {
        const n = this.rr.get(key) ?? 0;
        this.rr.set(key, n + 1);
        targets.push(members[n % members.length]!);
      }
    }
    if (targets.length === 1) return this.deliver(targets[0]!, message, subject);
    const pending: Promise<void>[] = [];
    for (const t of targets) pending.push(this.deliver(t, message, subject));
    await Promise.all(pending);
  }

  /** One handler's delivery: a throw or a rejection goes to `onError`, never to the publisher. */
  private async deliver(s: Sub, message: unknown, subject: string): Promise<void> {
    try {
      await s.handler(message, subject);
    } catch (err) {
      this.onError(err, subject);
    }
  }

  subscribe<T>(pattern: string, handler: BusHandler<T>, options: SubscribeOptions = {}): () => void {
    const sub: Sub = {
      pattern,
      tokens: pattern.split('.'),
      handler: handler as BusHandler,
      queue: options.queue,
    };
    this.subs.push(sub);
    return () => {
      this.subs = this.subs.filter((s) => s !== sub);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subs = [];
  }
}
