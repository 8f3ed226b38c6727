import { connect, type Socket } from 'node:net';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import {
  bytesToAscii,
  crc16Ibm,
  encodeGoSafeCommandResponse,
  encodeGoSafeText,
  encodeIStartekFrame,
  encodeIStartekPosition,
  encodeRuptelaCommandResponse,
  encodeRuptelaIdentification,
  encodeRuptelaRecords,
  encodeTeltonikaAvl,
  encodeTeltonikaCommandResponse,
  encodeTeltonikaImei,
  encodeTeltonikaUdp,
  type DecodedRecord,
} from '@fleet/device-protocols';
import type { VirtualVehicle } from './vehicle';

export type SimProtocol = 'teltonika' | 'ruptela' | 'gosafe' | 'istartek';
export const simProtocols: readonly SimProtocol[] = ['teltonika', 'ruptela', 'gosafe', 'istartek'];

export interface SimDeviceOptions {
  imei: string;
  protocol: SimProtocol;
  host: string;
  port: number;
  transport?: 'tcp' | 'udp';
  vehicle: VirtualVehicle;
  /** Records per frame limit when sending a backlog. */
  maxRecordsPerFrame?: number;
  /** No ACK within this time: the frame is resent on a new connection (default 10 s). */
  ackTimeoutMs?: number;
  /** Reconnect delay after a close (default 2 s). */
  reconnectMs?: number;
  /** Called with the ACK latency of each acknowledged frame (ms). */
  onAck?: (latencyMs: number, records: number) => void;
  onCommand?: (text: string, answer: string) => void;
  log?: (msg: string) => void;
}

/**
 * One simulated tracker speaking its protocol's real bytes over TCP (or UDP for Teltonika / GoSafe).
 * Like a real device it keeps unacknowledged records in memory and resends them; it answers commands
 * (Codec 12 responses, Ruptela SMS-via-GPRS answers, GoSafe and iStartek text replies).
 */
export class SimDevice {
  readonly imei: string;
  readonly protocol: SimProtocol;
  private socket: Socket | undefined;
  private udp: UdpSocket | undefined;
  private rx: Buffer = Buffer.alloc(0);
  private ready = false;
  private stopped = false;
  /** Records waiting to be sent (backlog while silent / unacknowledged). */
  readonly backlog: DecodedRecord[] = [];
  private inFlight: { count: number; at: number; timer: ReturnType<typeof setTimeout> } | undefined;
  private udpPacketId = 0;
  refused = false;
  sentFrames = 0;
  ackedRecords = 0;
  answered = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: SimDeviceOptions) {
    this.imei = opts.imei;
    this.protocol = opts.protocol;
  }

  get vehicle(): VirtualVehicle {
    return this.opts.vehicle;
  }

  get connected(): boolean {
    return this.ready;
  }

  start(): void {
    if ((this.opts.transport ?? 'tcp') === 'udp') {
      this.udp = createSocket('udp4');
      this.udp.on('message', (msg) => this.onUdp(msg));
      this.udp.on('error', () => undefined);
      this.ready = true;
      return;
    }
    this.connect();
  }

  private connect(): void {
    if (this.stopped) return;
    this.rx = Buffer.alloc(0);
    this.ready = false;
    const socket = connect({ host: this.opts.host, port: this.opts.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('connect', () => {
      if (this.protocol === 'teltonika') socket.write(encodeTeltonikaImei(this.imei));
      else {
        if (this.protocol === 'ruptela') socket.write(encodeRuptelaIdentification(this.imei));
        this.ready = true;
        this.flush();
      }
    });
    socket.on('data', (chunk: Buffer) => {
      this.rx = this.rx.length ? Buffer.concat([this.rx, chunk]) : chunk;
      this.parse();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.ready = false;
      if (this.inFlight) {
        clearTimeout(this.inFlight.timer);
        this.inFlight = undefined;
      }
      if (this.socket === socket) this.socket = undefined;
      if (!this.stopped && !this.refused) {
        this.reconnectTimer = setTimeout(() => this.connect(), this.opts.reconnectMs ?? 2000);
      }
    });
  }

  /** Adds a record (the tracker's periodic report) and sends what can be sent. */
  report(record: DecodedRecord, silent = false): void {
    this.backlog.push(record);
    if (this.backlog.length > 5000) this.backlog.splice(0, this.backlog.length - 5000);
    if (!silent) this.flush();
  }

  private write(bytes: Uint8Array): void {
    if (this.udp) this.udp.send(bytes, this.opts.port, this.opts.host);
    else this.socket?.write(bytes);
  }

  /** Sends the next frame of the backlog unless one is waiting for its ACK. */
  flush(): void {
    if (!this.ready || this.inFlight || this.backlog.length === 0 || this.stopped) return;
    const max = Math.min(this.opts.maxRecordsPerFrame ?? 50, this.protocol === 'gosafe' ? 20 : 255);
    const records = this.protocol === 'istartek' ? this.backlog.slice(0, 1) : this.backlog.slice(0, max);
    let frame: Uint8Array;
    if (this.protocol === 'teltonika') {
      frame = this.udp
        ? encodeTeltonikaUdp(this.imei, records, {
            packetId: this.udpPacketId,
            avlPacketId: this.udpPacketId & 0xff,
          })
        : encodeTeltonikaAvl(records);
      this.udpPacketId = (this.udpPacketId + 1) & 0xffff;
    } else if (this.protocol === 'ruptela')
      frame = encodeRuptelaRecords(this.imei, records, { extended: true });
    else if (this.protocol === 'gosafe') frame = encodeGoSafeText(this.imei, records);
    else frame = encodeIStartekPosition(records[0]!);
    this.sentFrames++;
    this.write(frame);
    if (this.protocol === 'istartek') {
      // iStartek devices expect no ACK: a written frame counts as delivered.
      this.backlog.splice(0, records.length);
      this.ackedRecords += records.length;
      if (this.backlog.length > 0) setImmediate(() => this.flush());
      return;
    }
    const timer = setTimeout(() => {
      // No ACK: drop the connection and resend everything on the next one (as trackers do).
      this.inFlight = undefined;
      if (this.udp) this.flush();
      else this.socket?.destroy();
    }, this.opts.ackTimeoutMs ?? 10_000);
    this.inFlight = { count: records.length, at: performance.now(), timer };
  }

  private acked(count: number): void {
    const f = this.inFlight;
    if (!f) return;
    clearTimeout(f.timer);
    this.inFlight = undefined;
    const n = Math.min(count, f.count);
    this.backlog.splice(0, n);
    this.ackedRecords += n;
    this.opts.onAck?.(performance.now() - f.at, n);
    this.flush();
  }

  private answer(text: string, answer: string): void {
    this.answered++;
    this.opts.onCommand?.(text, answer);
  }

  private onUdp(msg: Buffer): void {
    if (this.protocol === 'teltonika' && msg.length === 7) this.acked(msg[6]!);
    else if (this.protocol === 'gosafe' && bytesToAscii(msg).includes('1234'))
      this.acked(this.inFlight?.count ?? 0);
  }

  /** Server -> device bytes. */
  private parse(): void {
    for (;;) {
      const b = this.rx;
      if (b.length === 0) return;
      const used =
        this.protocol === 'teltonika'
          ? this.parseTeltonika(b)
          : this.protocol === 'ruptela'
            ? this.parseRuptela(b)
            : this.protocol === 'gosafe'
              ? this.parseGoSafe(b)
              : this.parseIStartek(b);
      if (used <= 0) return;
      this.rx = b.subarray(used);
    }
  }

  private parseTeltonika(b: Buffer): number {
    if (!this.ready) {
      if (b[0] === 1) {
        this.ready = true;
        setImmediate(() => this.flush());
      } else {
        this.refused = true;
        this.opts.log?.(`${this.imei}: refused by the server`);
        this.socket?.destroy();
      }
      return 1;
    }
    if (b.length < 4) return 0;
    const head = b.readUInt32BE(0);
    if (head !== 0) {
      this.acked(head);
      return 4;
    }
    if (b.length < 8) return 0;
    const len = b.readUInt32BE(4);
    if (b.length < len + 12) return 0;
    const data = b.subarray(8, 8 + len);
    if (crc16Ibm(data) === b.readUInt32BE(8 + len) && data[0] === 0x0c && data[2] === 0x05) {
      const size = data.readUInt32BE(3);
      const text = bytesToAscii(data.subarray(7, 7 + size));
      const answer = this.respond(text);
      this.write(encodeTeltonikaCommandResponse(answer));
      this.answer(text, answer);
    }
    return len + 12;
  }

  private parseRuptela(b: Buffer): number {
    if (b.length < 2) return 0;
    const n = b.readUInt16BE(0);
    if (b.length < n + 4) return 0;
    const cmd = b[2]!;
    if (cmd === 100) this.acked(this.inFlight?.count ?? 0);
    else if (cmd === 108) {
      const text = bytesToAscii(b.subarray(3, 2 + n)).trim();
      const answer = this.respond(text);
      this.write(encodeRuptelaCommandResponse(this.imei, answer));
      this.answer(text, answer);
    }
    return n + 4;
  }

  private parseGoSafe(b: Buffer): number {
    const s = bytesToAscii(b);
    if (s.startsWith('1234')) {
      this.acked(this.inFlight?.count ?? 0);
      return 4;
    }
    if (s.length < 4 && '1234'.startsWith(s)) return 0;
    // Anything else is a text command (GoSafe commands are plain text lines).
    const end = s.indexOf('1234');
    const text = (end > 0 ? s.slice(0, end) : s).trim();
    const answer = this.respond(text).replace(/[#$,]/g, ' ');
    this.write(encodeGoSafeCommandResponse(this.imei, answer));
    this.answer(text, answer);
    return end > 0 ? end : b.length;
  }

  private parseIStartek(b: Buffer): number {
    const crlf = b.indexOf('\r\n');
    if (crlf < 0) return b.length > 4096 ? b.length : 0;
    const line = bytesToAscii(b.subarray(0, crlf));
    const m = /^\$\$.\d+,\d+,(.*)..$/.exec(line);
    if (m) {
      const payload = m[1]!;
      const code = /^[0-9A-Fa-f]{3}$/.test(payload.slice(0, 3)) ? payload.slice(0, 3) : '900';
      const answer = this.respond(payload);
      this.write(encodeIStartekFrame(this.imei, code, `${payload.slice(4)},OK`));
      this.answer(payload, answer);
    }
    return crlf + 2;
  }

  /** What the firmware answers to a command text; switching outputs changes the vehicle state. */
  respond(text: string): string {
    const v = this.opts.vehicle.state;
    const t = text.trim().toLowerCase();
    const setOut = (which: 1 | 2, on: boolean) => {
      if (which === 1) {
        v.output1 = on;
        v.immobilized = on;
      } else v.output2 = on;
    };
    let m: RegExpExecArray | null;
    if (t === 'getver' || t === 'version')
      return `Ver:03.28.07_00 GPS:AXN_5.10 Hw:FMB920 Mod:13 IMEI:${this.imei} Init:2026-11-1 0:0 Uptime:3600 MAC:000000000000 SPC:1(0) AXL:1 OBD:0 BL:1.10 BT:4`;
    if (t === 'getstatus')
      return 'Data Link: 1 GPRS: 1 Phone: 0 SIM: 0 OP: 42402 Signal: 5 NewSMS: 0 Roaming: 0 SMSFull: 0 LAC: 1 Cell ID: 1 NetType: 1 FwUpd:-1';
    if (t === 'getgps' || t === 'coords')
      return `GPS:1 Sat:11 Lat:${v.latitude.toFixed(6)} Long:${v.longitude.toFixed(6)} Alt:10 Speed:${Math.round(v.speed)} Dir:${Math.round(v.course)}`;
    if ((m = /^setdigout ([01?])([01?])?/.exec(t))) {
      if (m[1] !== '?') setOut(1, m[1] === '1');
      if (m[2] && m[2] !== '?') setOut(2, m[2] === '1');
      return `DOUT1:${v.output1 ? 1 : 0} DOUT2:${v.output2 ? 1 : 0}`;
    }
    if ((m = /^setio (\d),(\d)/.exec(t))) {
      setOut(m[1] === '2' ? 2 : 1, m[2] === '1');
      return `Setio ${m[1]},${m[2]} OK`;
    }
    if ((m = /^900,(\d),(\d)/.exec(t))) {
      setOut(m[1] === '2' ? 2 : 1, m[2] === '1');
      return 'OK';
    }
    if ((m = /^odoset:(\d+)/.exec(t))) {
      v.odometerM = Number(m[1]) * 1000;
      return `Odometer set to ${m[1]} km`;
    }
    if (t === 'cpureset' || t === 'reset') return 'Reset OK';
    if (t === 'sdformat') return 'SD format started';
    if (t === 'delete_records') return 'Records deleted';
    if (t === 'web_connect') return 'FOTA WEB connecting';
    if (t.startsWith('setparam')) return `New value ${t.slice(9)}`;
    return `OK ${text.trim().slice(0, 60)}`;
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.inFlight) clearTimeout(this.inFlight.timer);
    this.socket?.destroy();
    this.udp?.close();
  }
}
