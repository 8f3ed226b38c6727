import { parseMqttLocationPayload } from '@fleet/device-protocols';
import { errText, type GatewayContext } from './context';
import { ingestGeneric } from './ingest';

/**
 * The MQTT transport (JSON positions on a topic, QoS 1): a message is acknowledged to the broker (PUBACK)
 * only after its records are stored, or after a malformed one is kept in the archive.
 */

/** What the gateway needs of the client to close it. */
export interface MqttHandle {
  end(force?: boolean, cb?: () => void): unknown;
}

export async function startMqtt(
  ctx: GatewayContext,
  url: string,
  topic: string,
  keep: (client: MqttHandle) => void,
): Promise<void> {
  const { stats, log } = ctx;
  const mqtt = await import('mqtt');
  const client = mqtt.connect(url, {
    clientId: `fleet-gateway-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
    reconnectPeriod: 2000,
    clean: true,
  });
  keep(client);
  const levels = topic.split('/');
  const plus = levels.indexOf('+');
  // PUBACK (QoS 1) only after the records are durably stored: mqtt.js waits for this callback.
  client.handleMessage = (packet, done) => {
    void (async () => {
      const t = packet.topic.split('/');
      const imeiFromTopic = plus >= 0 ? t[plus] : undefined;
      const parsed = parseMqttLocationPayload(
        packet.payload as Uint8Array,
        imeiFromTopic && /^\d{1,20}$/.test(imeiFromTopic) ? { imei: imeiFromTopic } : {},
      );
      if (parsed.error) {
        stats.framesRejected++;
        log.warn(`gateway: mqtt ${packet.topic}: ${parsed.error.code}: ${parsed.error.message}`);
        // Acknowledged to the broker once it is kept in the archive (a redelivery would fail the same
        // way); not acknowledged when even the archive cannot take it.
        const kept = await ctx.archive(
          'mqtt',
          typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload,
          `${parsed.error.code}: ${parsed.error.message}`,
          null,
          imeiFromTopic && /^\d{1,20}$/.test(imeiFromTopic) ? imeiFromTopic : undefined,
          null,
        );
        return kept ? done() : done(new Error('archive failure'));
      }
      const status = await ingestGeneric(ctx, parsed.records, 'mqtt', null);
      if (status === 503) return done(new Error('storage failure'));
      done();
    })().catch((err: unknown) => done(err instanceof Error ? err : new Error(String(err))));
  };
  client.on('error', (err) => log.warn(`gateway: mqtt: ${errText(err)}`));
  await new Promise<void>((resolve) => {
    client.once('connect', () => {
      client.subscribe(topic, { qos: 1 }, (err) => {
        if (err) log.warn(`gateway: mqtt subscribe ${topic}: ${errText(err)}`);
        else log.info(`gateway: mqtt subscribed to ${topic} on ${url}`);
        resolve();
      });
    });
    // Do not hold start-up hostage to a broker that is down: reconnects continue in the background.
    setTimeout(resolve, 3000).unref();
  });
}
