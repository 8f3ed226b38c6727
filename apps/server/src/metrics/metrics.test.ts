import { describe, expect, it } from 'vitest';
import {
  gatewayFrame,
  gatewayRefused,
  onScrape,
  outboxBacklog,
  pipelineProcessed,
  scrape,
  websocketJoined,
  websocketSent,
} from './metrics';
import { Health, startHealthServer } from './health';

/** The metrics module and the health port on their own (the cluster tests read them from real nodes). */
function value(text: string, sample: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : NaN;
}

describe('metrics', () => {
  it('counts gateway frames: received, acknowledged with their latency, refused by reason', async () => {
    const before = (await scrape()).body;
    const ok = gatewayFrame('ruptela', 5);
    ok.acked();
    const failed = gatewayFrame('ruptela', 3);
    failed.refused();
    gatewayRefused('ruptela', 'unknown_device');
    const after = (await scrape()).body;
    const d = (s: string) => (value(after, s) || 0) - (value(before, s) || 0);
    expect(d('fleet_gateway_records_received_total{protocol="ruptela"}')).toBe(8);
    expect(d('fleet_gateway_records_acknowledged_total{protocol="ruptela"}')).toBe(5);
    expect(d('fleet_gateway_ack_latency_seconds_count{protocol="ruptela"}')).toBe(1);
    expect(d('fleet_gateway_refused_total{protocol="ruptela",reason="storage_failure"}')).toBe(1);
    expect(d('fleet_gateway_refused_total{protocol="ruptela",reason="unknown_device"}')).toBe(1);
  });

  it("observes the pipeline lag from each record's fix time", async () => {
    const before = (await scrape()).body;
    const now = Date.now();
    pipelineProcessed([
      { fixTime: new Date(now - 30_000) },
      { fixTime: now - 200 },
      { fixTime: 'not a date' },
    ]);
    const after = (await scrape()).body;
    const d = (s: string) => (value(after, s) || 0) - (value(before, s) || 0);
    expect(d('fleet_pipeline_records_total')).toBe(3);
    expect(d('fleet_pipeline_lag_seconds_count')).toBe(2);
    expect(d('fleet_pipeline_lag_seconds_bucket{le="1"}')).toBe(1);
    expect(d('fleet_pipeline_lag_seconds_bucket{le="60"}')).toBe(2);
  });

  it('tracks WebSocket clients (a client leaving twice counts once) and messages', async () => {
    const base = value((await scrape()).body, 'fleet_websocket_clients');
    const leave = websocketJoined();
    websocketSent(4);
    websocketSent(0);
    expect(value((await scrape()).body, 'fleet_websocket_clients')).toBe(base + 1);
    leave();
    leave();
    expect(value((await scrape()).body, 'fleet_websocket_clients')).toBe(base);
  });

  // Without the collectors' time-out the scrape never resolves and the test times out.
  it('a hung scrape collector does not hold the scrape', async () => {
    const off = onScrape(() => new Promise(() => undefined));
    const off2 = onScrape(() => {
      outboxBacklog.labels('test').set(7);
    });
    const text = (await scrape()).body;
    expect(value(text, 'fleet_outbox_backlog{outbox="test"}')).toBe(7);
    off();
    off2();
  }, 10_000);
});

describe('health port', () => {
  it('answers /healthz always, /readyz 503 naming the failing check, /metrics', async () => {
    let dbUp = true;
    const health = new Health()
      .add('database', () => (dbUp ? undefined : 'connection refused'))
      .add('nats', async () => undefined);
    const hs = await startHealthServer({ port: 0, host: '127.0.0.1', health });
    try {
      expect((await fetch(`${hs.url}/readyz`)).status).toBe(200);
      dbUp = false;
      const r = await fetch(`${hs.url}/readyz`);
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({
        ready: false,
        checks: { database: { ok: false, error: 'connection refused' }, nats: { ok: true } },
      });
      expect((await fetch(`${hs.url}/healthz`)).status).toBe(200);
      const m = await (await fetch(`${hs.url}/metrics`)).text();
      expect(value(m, 'fleet_ready{check="database"}')).toBe(0);
      expect(value(m, 'fleet_ready{check="nats"}')).toBe(1);
      expect((await fetch(`${hs.url}/other`)).status).toBe(404);
      expect((await fetch(`${hs.url}/readyz`, { method: 'POST' })).status).toBe(405);
    } finally {
      await hs.close();
    }
  });
});
