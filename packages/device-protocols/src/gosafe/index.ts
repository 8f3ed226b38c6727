export {
  GOSAFE_ACK,
  GOSAFE_MAX_FRAME_SIZE,
  createGoSafeSession,
  decodeGoSafeMessage,
  encodeGoSafeCommandResponse,
  encodeGoSafeText,
  escapeGoSafe,
  unescapeGoSafe,
  type GoSafeSession,
} from './codec';
