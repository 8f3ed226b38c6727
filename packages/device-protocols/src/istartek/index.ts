export {
  ISTARTEK_MAX_FRAME_SIZE,
  createIStartekSession,
  encodeIStartekCommand,
  encodeIStartekFrame,
  encodeIStartekPosition,
  encodeIStartekReply,
  ISTARTEK_POSITION_TYPES,
  type IStartekOptions,
  type IStartekSession,
} from './codec';
