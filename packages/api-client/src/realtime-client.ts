import {
  globalTimers,
  PING_INTERVAL_MS,
  RECONNECT_INTERVAL_MS,
  silentLogger,
  type Logger,
  type Timers,
} from '@fleet/core';
import { parseRealtimeFrame, websocketUrl, type RealtimeFrame } from './realtime';

/**
 * The real-time socket client, next to the contract it reads (realtime.ts).
 *
 * It used to live in @fleet/core, which cannot import this package (this package depends on core for
 * its validation wording), so core kept a second, shape-only parser for when the app forgot to hand
 * the contract's parser in. Here the client parses every frame with {@link parseRealtimeFrame} and
 * nothing else: a message that does not fit its event's schema is dropped and counted, never handed
 * out. Core keeps the parts that are not about the contract (timers, logger, constants).
 */

/** A message as the client hands it out: parsed with the contract's schemas, typed by event. */
export type RealtimeClientMessage = RealtimeFrame['messages'][number];

/**
 * The subset of WebSocket used here; both the browser's WebSocket and `ws` implement it.
 * readyState follows the standard numbering (0 connecting, 1 open, 2 closing, 3 closed).
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: never) => void) | null;
  onclose: ((event: never) => void) | null;
  onerror: ((event: never) => void) | null;
  onmessage: ((event: never) => void) | null;
}

export type RealtimeListener = (data: unknown, message: RealtimeClientMessage) => void;
export type RealtimeConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface RealtimeClientOptions {
  /** Provider API host, e.g. 'wss://api.example.com' (http(s) is turned into ws(s)). */
  baseUrl: string;
  /** First path identifier; without it no connection is made. */
  firstId: string | null | undefined;
  /** Second path identifier; left out of the path when empty (not shown in the spec). */
  secondId?: string | null;
  /** Optional access token, sent as `?token=`. */
  token?: string | null;
  /** Optional language of the connection (en, ar), sent as `locale=`: the server words alerts in it. */
  locale?: string | null;
  createSocket: (url: string) => WebSocketLike;
  timers?: Timers;
  logger?: Logger;
  pingIntervalMs?: number;
  reconnectIntervalMs?: number;
}

const OPEN = 1;
const CONNECTING = 0;

/**
 * Listener key of an event: notification -> its path only; device-command-response is published as
 * command-response; every other kind -> `{event}:{path}`, or the bare kind when there is no path.
 */
export function realtimeKey(event: string, path?: string | null): string {
  if (event === 'notification') return path ? path : 'notification';
  const kind = event === 'device-command-response' ? 'command-response' : event;
  return path ? `${kind}:${path}` : kind;
}

function decodeData(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data as Uint8Array);
  return null;
}

/**
 * The real-time socket client of spec section 4. After `connect()` it keeps one socket open: on open
 * it clears the reconnect timer and sends `{event: 'ping'}` every 30 s; on close it stops the ping
 * and retries every 15 s until a socket opens; `close()` stops both for good. Incoming messages are
 * republished to listeners registered under {@link realtimeKey}; pong is accepted silently; messages
 * that are not JSON or not of the contract, socket errors and listener exceptions are only logged.
 */
export class RealtimeClient {
  private readonly options: RealtimeClientOptions;
  private readonly timers: Timers;
  private readonly logger: Logger;
  private readonly listeners = new Map<string, Set<RealtimeListener>>();
  private readonly stateListeners = new Set<(state: RealtimeConnectionState) => void>();
  private socket: WebSocketLike | null = null;
  private pingTimer: unknown = null;
  private reconnectTimer: unknown = null;
  private currentState: RealtimeConnectionState = 'idle';
  private pongs = 0;
  private droppedMessages = 0;

  constructor(options: RealtimeClientOptions) {
    this.options = options;
    this.timers = options.timers ?? globalTimers;
    this.logger = options.logger ?? silentLogger;
  }

  get state(): RealtimeConnectionState {
    return this.currentState;
  }

  /** Number of pongs received since construction (diagnostics). */
  get pongCount(): number {
    return this.pongs;
  }

  /** Messages dropped since construction: not JSON, or outside the contract (diagnostics). */
  get droppedCount(): number {
    return this.droppedMessages;
  }

  /**
   * Starts the connection. Returns false (and connects nothing) without a first identifier.
   * Calling it while connected or connecting does nothing.
   */
  connect(): boolean {
    if (!this.options.firstId) {
      this.logger.warn('realtime: no first identifier, not connecting');
      return false;
    }
    if (
      this.currentState === 'connecting' ||
      this.currentState === 'open' ||
      this.currentState === 'reconnecting'
    ) {
      return true;
    }
    this.open();
    return true;
  }

  /** Deliberate close: stops the ping and the reconnect timer and closes the socket. */
  close(): void {
    this.stopPing();
    this.stopReconnect();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      this.detach(socket);
      try {
        socket.close(1000, 'client closed');
      } catch (error) {
        this.logger.error('realtime: error while closing', error);
      }
    }
    if (this.currentState !== 'idle' || socket) this.setState('closed');
  }

  /**
   * Tries to connect now instead of at the next 15 s retry: the browser said the network is back
   * (`online`) or the page became visible again. Only while reconnecting and not already dialling;
   * returns whether a new socket was started.
   */
  reconnectNow(): boolean {
    if (this.currentState !== 'reconnecting') return false;
    if (this.socket && this.socket.readyState === CONNECTING) return false;
    this.open();
    return true;
  }

  /** Registers a listener for one key; returns the unsubscribe function. */
  on(key: string, listener: RealtimeListener): () => void {
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(key);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.listeners.delete(key);
    };
  }

  /** Observes connection state changes; returns the unsubscribe function. */
  onStateChange(listener: (state: RealtimeConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  /** Sends a message when the socket is open; returns whether it was sent. */
  send(message: { event: string; [field: string]: unknown }): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return false;
    try {
      socket.send(JSON.stringify(message));
      return true;
    } catch (error) {
      this.logger.error('realtime: send failed', error);
      return false;
    }
  }

  private setState(state: RealtimeConnectionState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    for (const listener of [...this.stateListeners]) {
      try {
        listener(state);
      } catch (error) {
        this.logger.error('realtime: state listener failed', error);
      }
    }
  }

  private open(): void {
    const { baseUrl, firstId, secondId, token, locale } = this.options;
    const url = websocketUrl(baseUrl, firstId as string, secondId, token, locale);
    let socket: WebSocketLike;
    try {
      socket = this.options.createSocket(url);
    } catch (error) {
      this.logger.error('realtime: could not create socket', error);
      this.socket = null;
      this.setState('reconnecting');
      this.startReconnect();
      return;
    }
    this.socket = socket;
    if (this.currentState !== 'reconnecting') this.setState('connecting');
    socket.onopen = () => this.handleOpen(socket);
    socket.onclose = () => this.handleClose(socket);
    socket.onerror = ((event: unknown) => {
      this.logger.error('realtime: socket error', event);
    }) as (event: never) => void;
    socket.onmessage = ((event: { data: unknown }) => this.handleMessage(event.data)) as (
      event: never,
    ) => void;
  }

  private detach(socket: WebSocketLike): void {
    socket.onopen = null;
    socket.onclose = null;
    socket.onerror = null;
    socket.onmessage = null;
  }

  private handleOpen(socket: WebSocketLike): void {
    if (socket !== this.socket) return;
    this.stopReconnect();
    this.stopPing();
    this.pingTimer = this.timers.setInterval(() => {
      this.send({ event: 'ping' });
    }, this.options.pingIntervalMs ?? PING_INTERVAL_MS);
    this.setState('open');
  }

  private handleClose(socket: WebSocketLike): void {
    if (socket !== this.socket) return;
    this.detach(socket);
    this.socket = null;
    this.stopPing();
    this.setState('reconnecting');
    this.startReconnect();
  }

  private startReconnect(): void {
    if (this.reconnectTimer !== null) return;
    this.reconnectTimer = this.timers.setInterval(() => {
      if (this.socket && this.socket.readyState === CONNECTING) return;
      if (this.socket && this.socket.readyState === OPEN) {
        this.stopReconnect();
        return;
      }
      this.open();
    }, this.options.reconnectIntervalMs ?? RECONNECT_INTERVAL_MS);
  }

  private stopReconnect(): void {
    if (this.reconnectTimer === null) return;
    this.timers.clearInterval(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private stopPing(): void {
    if (this.pingTimer === null) return;
    this.timers.clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private handleMessage(payload: unknown): void {
    const text = decodeData(payload);
    if (text === null) {
      this.droppedMessages += 1;
      this.logger.warn('realtime: ignored malformed message (unsupported payload type)', payload);
      return;
    }
    const frame = parseRealtimeFrame(text);
    if (frame.invalid > 0) {
      this.droppedMessages += frame.invalid;
      this.logger.warn(
        `realtime: ignored malformed message (${frame.error ?? 'outside the contract'})`,
        frame.invalid > 1 ? `${frame.invalid} messages` : payload,
      );
    }
    // A batch frame (one burst of the server for this client) is handled message by message, in order.
    for (const message of frame.messages) this.dispatch(message);
  }

  private dispatch(message: RealtimeClientMessage): void {
    if (message.event === 'pong') {
      this.pongs += 1;
      return;
    }
    const key = realtimeKey(message.event, message.path);
    const set = this.listeners.get(key);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(message.data, message);
      } catch (error) {
        this.logger.error(`realtime: listener for ${key} failed`, error);
      }
    }
  }
}
