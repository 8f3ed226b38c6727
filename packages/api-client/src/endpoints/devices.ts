/** Devices: the managed records, unknown IMEIs, commands, undecoded frames and sensor settings. */
import { z } from 'zod';
import {
  verifiedCommandTypes,
  deviceCommandInputSchema,
  deviceCommandListQuerySchema,
  deviceCommandSchema,
} from '../schemas/command';
import {
  dataEnvelope,
  entityStatusSchema,
  messageResponseSchema,
  paginated,
  uuidParamsSchema,
} from '../schemas/common';
import {
  deviceInputSchema,
  deviceListQuerySchema,
  deviceSchema,
  unknownDeviceListQuerySchema,
  unknownDeviceSchema,
} from '../schemas/device';
import {
  deviceSensorsInputSchema,
  deviceSensorsSchema,
  frameCounterSchema,
  rawFrameListQuerySchema,
  rawFrameReplayInputSchema,
  rawFrameReplayOutcomeSchema,
  rawFrameSchema,
} from '../schemas/device-field';
import { crud, endpoint } from './define';

export const deviceEndpoints = {
  'devices.unknown': endpoint({
    method: 'GET',
    path: '/v1/devices/unknown',
    query: unknownDeviceListQuerySchema,
    response: paginated(unknownDeviceSchema),
    auth: 'company',
    summary: 'Devices that tried to connect with an unknown IMEI',
  }),
  'devices.unknownDismiss': endpoint({
    method: 'DELETE',
    path: '/v1/devices/unknown/:uuid',
    params: uuidParamsSchema,
    response: messageResponseSchema,
    auth: 'company',
    summary: 'Dismiss an unknown device',
  }),
  'devices.commandSend': endpoint({
    method: 'POST',
    path: '/v1/devices/:uuid/commands',
    params: uuidParamsSchema,
    body: deviceCommandInputSchema,
    response: dataEnvelope(deviceCommandSchema),
    auth: 'company',
    summary: `Send (or queue) a command to a device (password step-up, verification_token, for: ${verifiedCommandTypes.join(', ')})`,
  }),
  'devices.commandList': endpoint({
    method: 'GET',
    path: '/v1/devices/:uuid/commands',
    params: uuidParamsSchema,
    query: deviceCommandListQuerySchema,
    response: paginated(deviceCommandSchema),
    auth: 'company',
    summary: 'Command history of a device',
  }),
  'devices.rawFrames': endpoint({
    method: 'GET',
    path: '/v1/devices/:uuid/raw-frames',
    params: uuidParamsSchema,
    query: rawFrameListQuerySchema,
    response: dataEnvelope(z.array(rawFrameSchema)),
    auth: 'company',
    summary: 'Frames of a device the gateway could not decode (super admins)',
  }),
  'devices.rawFramesReplay': endpoint({
    method: 'POST',
    path: '/v1/devices/:uuid/raw-frames/replay',
    params: uuidParamsSchema,
    body: rawFrameReplayInputSchema,
    response: dataEnvelope(z.array(rawFrameReplayOutcomeSchema)),
    auth: 'company',
    summary: 'Feed archived frames through the decoder again (super admins)',
  }),
  'devices.frameCounters': endpoint({
    method: 'GET',
    path: '/v1/devices/:uuid/frame-counters',
    params: uuidParamsSchema,
    response: dataEnvelope(z.array(frameCounterSchema)),
    auth: 'company',
    summary: 'Frames decoded, refused and archived per protocol',
  }),
  'devices.sensors': endpoint({
    method: 'GET',
    path: '/v1/devices/:uuid/sensors',
    params: uuidParamsSchema,
    response: dataEnvelope(deviceSensorsSchema),
    auth: 'company',
    summary: 'Sensor settings of a device (ignition, odometer, fuel calibration)',
  }),
  'devices.sensorsUpdate': endpoint({
    method: 'PUT',
    path: '/v1/devices/:uuid/sensors',
    params: uuidParamsSchema,
    body: deviceSensorsInputSchema,
    response: dataEnvelope(deviceSensorsSchema),
    auth: 'company',
    summary: 'Record a new sensor setting of a device, applying from a chosen time',
  }),
} as const;

export const deviceCrud = crud('devices', 'devices', 'device', {
  item: deviceSchema,
  input: deviceInputSchema,
  query: deviceListQuerySchema,
  status: entityStatusSchema,
});
