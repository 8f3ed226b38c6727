export {
  ISTARTEK_MAX_FRAME_SIZE,
  createIStartekSession,
  encodeIStartekCommand,
  encodeIStartekFrame,
  encodeIStartekPosition,
  type IStartekOptions,
  type IStartekSession,
} from './codec';
