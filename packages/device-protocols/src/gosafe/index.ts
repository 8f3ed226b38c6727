export {
  GOSAFE_ACK,
  GOSAFE_MAX_FRAME_SIZE,
  createGoSafeSession,
  decodeGoSafeMessage,
  escapeGoSafe,
  unescapeGoSafe,
  type GoSafeSession,
} from './framing';
export { encodeGoSafeCommandResponse, encodeGoSafeText } from './encoding';
