export {
  answerKeyOf,
  commandAnswerKey,
  commandTypes,
  encodeDeviceCommand,
  supportedCommandMatrix,
  supportedCommands,
  type CommandParams,
  type CommandType,
  type DeviceCommand,
  type EncodeCommandResult,
  type EncodedCommand,
} from './commands';
