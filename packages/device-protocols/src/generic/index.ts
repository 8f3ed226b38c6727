export {
  OSMAND_MAX_BODY_SIZE,
  parseOsmAndRequest,
  type OsmAndOptions,
  type OsmAndRequest,
  type OsmAndResult,
} from './osmand';
export {
  MQTT_MAX_PAYLOAD_SIZE,
  MQTT_MAX_RECORDS,
  encodeMqttLocation,
  parseMqttLocationPayload,
  type MqttLocation,
  type MqttParseResult,
} from './mqtt-json';
