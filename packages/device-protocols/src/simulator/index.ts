export {
  createDeviceInboundDecoder,
  type DeviceInbound,
  type DeviceInboundDecoder,
  type DeviceInboundResult,
} from './device-inbound';
