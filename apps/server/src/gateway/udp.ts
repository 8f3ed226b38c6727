import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { decodeGoSafeMessage, decodeTeltonikaUdp } from '@fleet/device-protocols';
import { gatewayRefused } from '../metrics/metrics';
import { errText, type DeviceRecords, type GatewayContext } from './context';

/**
 * The UDP transport (Teltonika and GoSafe datagrams on the TCP port number): each datagram is decoded on
 * its own, its records stored, and its reply sent only after they committed. Connectionless: presence is
 * "last heard" (presence.ts).
 */
export function listenUdp(
  ctx: GatewayContext,
  sockets: UdpSocket[],
  protocol: 'teltonika' | 'gosafe',
  port: number,
): Promise<number> {
  const { config, stats, log, storage, counters, commands } = ctx;
  const sock = createSocket('udp4');
  sockets.push(sock);
  sock.on('message', (msg, rinfo) => {
    void (async () => {
      const res = protocol === 'teltonika' ? decodeTeltonikaUdp(msg) : decodeGoSafeMessage(msg);
      const remote = `${rinfo.address}:${rinfo.port}`;
      if (res.error) {
        stats.framesRejected++;
        log.warn(`gateway: ${protocol} udp ${remote}: ${res.error.code}: ${res.error.message}`);
        await ctx.archive(protocol, msg, `${res.error.code}: ${res.error.message}`, remote, undefined, null);
        return;
      }
      const groups: DeviceRecords[] = [];
      for (const m of res.messages) {
        if (m.type === 'undecodable') {
          stats.framesRejected++;
          gatewayRefused(protocol, 'undecodable');
          await ctx.archive(protocol, m.frame, m.reason, remote, m.imei, null);
          continue;
        }
        const imei = m.type === 'command-response' ? m.response.imei : m.imei;
        if (!imei) continue;
        const dev = await storage.resolveDevice(imei);
        if (!dev) return ctx.refuse(imei, protocol, rinfo.address);
        ctx.heardConnectionless(dev);
        if (m.type === 'records') groups.push({ device: dev, records: m.records });
        // A device may answer a command (sent earlier over SMS or a TCP session) in a datagram; the
        // answer goes to its command history like one that arrives over TCP.
        else if (m.type === 'command-response')
          ctx.bg(commands.answer(dev.deviceId, m.response), 'udp command answer');
      }
      try {
        await ctx.ingest(groups, false);
      } catch (err) {
        stats.storageFailures++;
        log.warn(`gateway: ${protocol} udp storage failure, nothing acknowledged: ${errText(err)}`);
        return;
      }
      for (const g of groups) counters.count(g.device.deviceId, protocol, 'decoded');
      if (res.reply && !ctx.closing()) sock.send(res.reply, rinfo.port, rinfo.address);
    })().catch((err: unknown) => log.warn(`gateway: udp ${protocol}: ${errText(err)}`));
  });
  return new Promise((resolve, reject) => {
    sock.once('error', reject);
    sock.bind({ port, address: config.GATEWAY_HOST }, () => {
      sock.off('error', reject);
      sock.on('error', (err) => log.warn(`gateway: udp ${protocol}: ${errText(err)}`));
      resolve(sock.address().port);
    });
  });
}
