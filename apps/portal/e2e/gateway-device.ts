import { connect } from 'node:net';
import { expect, type APIRequestContext } from '@playwright/test';
// Relative import: the protocol package is read from source (no dist is built for the e2e run).
import {
  encodeTeltonikaAvl,
  encodeTeltonikaImei,
  type DecodedRecord,
} from '../../../packages/device-protocols/src/index';
import { DEMO_EMAIL, DEMO_PASSWORD } from './helpers';

/**
 * Driving a device through the real gateway from a spec: an API session of the demo company (to create
 * the device and its vehicle) and a Teltonika device speaking Codec 8E over TCP.
 */

/** The gateway's Teltonika port as playwright.config.ts sets it for the server. */
export const teltonikaPort = Number(
  process.env.E2E_TELTONIKA_PORT ?? Number(process.env.E2E_API_PORT ?? 18080) + 1,
);

/** Headers of an API session of the demo account in "Demo Transport". */
export async function apiSession(request: APIRequestContext) {
  const login = await request.post('/v1/login', { data: { email: DEMO_EMAIL, password: DEMO_PASSWORD } });
  expect(login.ok()).toBe(true);
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const me = await request.get('/v1/auth', { headers: { Authorization: `Bearer ${token}` } });
  const companies = ((await me.json()) as { data: { transport_companies: { uuid: string; name: string }[] } })
    .data.transport_companies;
  const company = companies.find((c) => c.name === 'Demo Transport') ?? companies[0]!;
  return { Authorization: `Bearer ${token}`, 'X-Transport-Uuid': company.uuid };
}

/** Sends records as one Teltonika device over TCP and waits for each packet's acknowledgement. */
export async function sendOverGateway(imei: string, records: DecodedRecord[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ port: teltonikaPort, host: '127.0.0.1' });
    let buffer = Buffer.alloc(0);
    let stage: 'handshake' | number = 'handshake';
    const batches: DecodedRecord[][] = [];
    for (let i = 0; i < records.length; i += 5) batches.push(records.slice(i, i + 5));
    const next = () => {
      const index = stage === 'handshake' ? 0 : stage + 1;
      if (index >= batches.length) {
        socket.end();
        resolve();
        return;
      }
      stage = index;
      socket.write(encodeTeltonikaAvl(batches[index]!));
    };
    socket.setTimeout(20_000, () => reject(new Error(`gateway timeout at ${String(stage)}`)));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(encodeTeltonikaImei(imei)));
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === 'handshake') {
        if (buffer[0] !== 1) return reject(new Error('IMEI refused by the gateway'));
        buffer = buffer.subarray(1);
        next();
      } else if (buffer.length >= 4) {
        const acked = buffer.readUInt32BE(0);
        buffer = buffer.subarray(4);
        if (acked !== batches[stage]!.length) return reject(new Error(`ack ${acked} for batch ${stage}`));
        next();
      }
    });
  });
}

/** Creates a Teltonika device and a car carrying it; returns the vehicle's uuid. */
export async function createTrackedVehicle(
  request: APIRequestContext,
  headers: Record<string, string>,
  imei: string,
  plate: string,
): Promise<string> {
  const device = await request.post('/v1/devices', { headers, data: { imei, type: 'teltonika' } });
  expect(device.ok(), await device.text()).toBe(true);
  const vehicle = await request.post('/v1/vehicles', {
    headers,
    data: { license_plate_number: plate, type: 'car', device_imei: imei },
  });
  expect(vehicle.ok(), await vehicle.text()).toBe(true);
  return ((await vehicle.json()) as { data: { uuid: string } }).data.uuid;
}
