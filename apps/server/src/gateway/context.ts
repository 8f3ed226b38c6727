import type { DecodedRecord } from '@fleet/device-protocols';
import type { DeviceRef, Storage } from '../storage/storage';
import type { CommandService } from '../commands/service';
import type { GatewayConfig } from './config';
import type { FrameCounters } from './frame-counters';
import type { StatusWriter } from './status-writer';
import type { UnknownThrottle } from './unknown-throttle';

/**
 * What the gateway's parts share (gateway.ts builds it once): the transports (tcp.ts, udp.ts, osmand.ts,
 * mqtt.ts) receive it, and none of them holds state another part needs. A transport changes when its
 * protocol handling changes; storing and publishing (ingest.ts, publish.ts), presence (presence.ts) and the
 * composition (gateway.ts) change for their own reasons.
 */

export interface GatewayLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface GatewayStats {
  connections: number;
  framesRejected: number;
  unknownRefused: number;
  storageFailures: number;
}

/** Records of one known device, as a transport hands them to {@link GatewayContext.ingest}. */
export interface DeviceRecords {
  device: DeviceRef;
  records: readonly DecodedRecord[];
}

/** The command link of a live TCP connection (commands are written to it). */
export interface CommandLink {
  deviceId: number;
  write(bytes: Uint8Array): boolean;
}

/** A live device connection as the registry keeps it. */
export interface RegisteredConnection {
  readonly link: CommandLink;
}

/** Refresh last_connected_at at most this often while a device keeps sending. */
export const STATUS_REFRESH_MS = 60_000;

export interface GatewayContext {
  readonly config: GatewayConfig;
  readonly storage: Pick<Storage, 'db' | 'insertLocations' | 'resolveDevice' | 'recordUnknownDevice'>;
  readonly log: GatewayLogger;
  readonly now: () => Date;
  readonly stats: GatewayStats;
  readonly counters: FrameCounters;
  readonly commands: CommandService;
  readonly status: StatusWriter;
  readonly unknownThrottle: UnknownThrottle;
  /** Live TCP connections of this node by device uuid. */
  readonly registry: Map<string, RegisteredConnection>;
  /** True once close() began: no new connections, no replies. */
  closing(): boolean;
  /** Runs a promise in the background; a failure is one warning. */
  bg(p: Promise<unknown>, what: string): void;
  /** Keeps a frame that was not decoded in the raw-frame archive; false when even that failed. */
  archive(
    protocol: string,
    bytes: Uint8Array,
    reason: string,
    remote: string | null,
    imei: string | undefined,
    known: DeviceRef | null,
  ): Promise<boolean>;
  /** Counts, throttles and records an unknown device's attempt. */
  refuse(imei: string, protocol: string, remote: string | null): Promise<void>;
  /** Stores records of known devices and publishes the new ones (rejects on a storage failure). */
  ingest(groups: DeviceRecords[], generic: boolean): Promise<void>;
  /** A connectionless device (UDP, OsmAnd, MQTT) reported: keeps it shown online. */
  heardConnectionless(dev: DeviceRef): void;
  /** A device connected: its queued commands are sent (one query for the devices of a moment). */
  dispatchQueued(conn: RegisteredConnection): void;
}

export function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
