import { parseArgs } from 'node:util';
import { simProtocols, type SimProtocol } from './device';
import { simulatedImei, startSimulatedFleet } from './fleet';

/**
 * `npm run simulate -- --protocol teltonika|ruptela|gosafe|istartek|mixed --devices N --interval ms
 *   --host 127.0.0.1 --port P --duration s [--seed n] [--transport tcp|udp] [--imei-prefix 35000]`
 *
 * IMEIs are deterministic (prefix + index + Luhn digit) and printed, so they can be registered with
 * POST /v1/devices first: the gateway refuses unknown IMEIs. With `mixed`, devices cycle through the
 * four protocols on their default ports (Traccar's: 5027, 5046, 5078, 5222) unless --port is given for
 * a single protocol.
 */
const DEFAULT_PORTS: Record<SimProtocol, number> = {
  teltonika: 5027,
  ruptela: 5046,
  gosafe: 5078,
  istartek: 5222,
};

function fail(msg: string): never {
  console.error(`simulate: ${msg}`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    protocol: { type: 'string', default: 'teltonika' },
    devices: { type: 'string', default: '10' },
    interval: { type: 'string', default: '5000' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string' },
    duration: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    transport: { type: 'string', default: 'tcp' },
    'imei-prefix': { type: 'string', default: '35000' },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});

const protocol = values.protocol;
if (protocol !== 'mixed' && !(simProtocols as readonly string[]).includes(protocol)) {
  fail(`--protocol must be one of ${simProtocols.join(', ')}, mixed`);
}
const int = (name: string, v: string, min: number, max: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) fail(`--${name} must be an integer ${min}..${max}`);
  return n;
};
const count = int('devices', values.devices, 1, 100_000);
const interval = int('interval', values.interval, 10, 3_600_000);
const duration = int('duration', values.duration, 0, 86_400 * 30);
const seed = int('seed', values.seed, 0, 2 ** 31);
if (values.transport !== 'tcp' && values.transport !== 'udp') fail('--transport must be tcp or udp');
if (!/^\d{1,10}$/.test(values['imei-prefix'])) fail('--imei-prefix must be digits');
const ports: Record<SimProtocol, number> = { ...DEFAULT_PORTS };
if (values.port !== undefined) {
  const p = int('port', values.port, 1, 65535);
  if (protocol === 'mixed') fail('--port needs a single --protocol');
  ports[protocol as SimProtocol] = p;
}

const devices = Array.from({ length: count }, (_, i) => ({
  imei: simulatedImei(i + 1, values['imei-prefix']),
  protocol: protocol === 'mixed' ? simProtocols[i % simProtocols.length]! : (protocol as SimProtocol),
}));
if (!values.quiet) {
  console.log(
    `simulate: ${count} ${protocol} device(s) -> ${values.host}, every ${interval} ms, seed ${seed}`,
  );
  for (const d of devices.slice(0, 20))
    console.log(`  ${d.protocol.padEnd(9)} ${d.imei} -> port ${ports[d.protocol]}`);
  if (devices.length > 20) console.log(`  ... and ${devices.length - 20} more`);
}
const fleet = startSimulatedFleet({
  devices,
  host: values.host,
  ports,
  intervalMs: interval,
  seed,
  transport: values.transport,
  onCommand: (imei, text, answer) => console.log(`command to ${imei}: ${text} -> ${answer}`),
  log: (m) => console.log(m),
});
const started = Date.now();
const report = setInterval(() => {
  const s = fleet.stats();
  console.log(
    `t=${Math.round((Date.now() - started) / 1000)}s connected=${s.connected}/${fleet.devices.length} generated=${s.generated} acked=${s.acked} frames=${s.frames} answered=${s.answered}`,
  );
}, 5000);
const stop = () => {
  clearInterval(report);
  fleet.stop();
  console.log(
    JSON.stringify({
      simulate: {
        protocol,
        devices: count,
        ...fleet.stats(),
        seconds: Math.round((Date.now() - started) / 1000),
      },
    }),
  );
  setTimeout(() => process.exit(0), 100);
};
if (duration > 0) setTimeout(stop, duration * 1000);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
