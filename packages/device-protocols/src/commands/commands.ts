import { asciiToBytes } from '../common/byte-reader';
import { protocolError, type ProtocolError } from '../common/errors';
import { tryFromHex } from '../common/hex';
import { encodeIStartekCommand } from '../istartek/codec';
import { encodeRuptelaServerFrame } from '../ruptela/encoding';
import { RUPTELA_CMD_SMS_VIA_GPRS, RUPTELA_CMD_SMS_VIA_GPRS_RESPONSE } from '../ruptela/constants';
import type { CommandResponse, DeviceType } from '../records';
import { encodeTeltonikaCommand } from '../teltonika/codec12';

/** Remote command types of the spec (§7), in the spec's order. */
export const commandTypes = [
  'change_ip_port',
  'custom',
  'get_status',
  'get_version',
  'output1_on',
  'output1_off',
  'output2_on',
  'output2_off',
  'format_sd',
  'delete_records',
  'fota_web',
  'get_gps',
  'immobilize',
  'unimmobilize',
  'set_odometer',
  'reset',
] as const;

export type CommandType = (typeof commandTypes)[number];

export interface CommandParams {
  /** change_ip_port */
  host?: string;
  port?: number;
  /** custom: device text, or an even-length hex string sent as raw bytes (Teltonika, Ruptela). */
  data?: string;
  /** set_odometer, in kilometres. */
  odometerKm?: number;
}

export interface DeviceCommand {
  type: CommandType;
  params?: CommandParams;
}

export interface EncodedCommand {
  /** Bytes to write to the device's connection. */
  bytes: Uint8Array;
  /** The device-level command text (for the command history), e.g. `setdigout 1`. */
  text: string;
  /** True when immobilize-like: the API must verify the user's password before sending. */
  needsPasswordVerification: boolean;
  /**
   * Which device answer belongs to this command ({@link answerKeyOf} of that answer), or null when the
   * protocol cannot tell (then the oldest unanswered command of the device takes the next answer).
   */
  answerKey: string | null;
}

export type EncodeCommandResult = { ok: true; command: EncodedCommand } | { ok: false; error: ProtocolError };

type TextBuilder = (p: CommandParams) => string | ProtocolError;

function needHostPort(p: CommandParams): ProtocolError | undefined {
  if (!p.host || !/^[A-Za-z0-9.-]{1,253}$/.test(p.host))
    return protocolError('invalid_argument', 'host is required');
  if (p.port === undefined || !Number.isInteger(p.port) || p.port < 1 || p.port > 65535) {
    return protocolError('invalid_argument', 'port must be 1-65535');
  }
  return undefined;
}

function needData(p: CommandParams): string | ProtocolError {
  if (!p.data || p.data.length > 1024 || /[\r\n]/.test(p.data)) {
    return protocolError('invalid_argument', 'data is required (one line, at most 1024 characters)');
  }
  return p.data;
}

function needOdometer(p: CommandParams): ProtocolError | number {
  if (
    p.odometerKm === undefined ||
    !Number.isFinite(p.odometerKm) ||
    p.odometerKm < 0 ||
    p.odometerKm > 1e8
  ) {
    return protocolError('invalid_argument', 'odometerKm must be a non-negative number');
  }
  return Math.round(p.odometerKm);
}

/**
 * Teltonika FMB/FMC/FMM command texts (sent in Codec 12). `setdigout` takes one character per output,
 * `?` leaves an output unchanged; immobilize uses DOUT1 like Traccar's engine stop.
 */
const TELTONIKA: Partial<Record<CommandType, TextBuilder>> = {
  change_ip_port: (p) => needHostPort(p) ?? `setparam 2004:${p.host};2005:${p.port}`,
  custom: needData,
  get_status: () => 'getstatus',
  get_version: () => 'getver',
  output1_on: () => 'setdigout 1?',
  output1_off: () => 'setdigout 0?',
  output2_on: () => 'setdigout ?1',
  output2_off: () => 'setdigout ?0',
  format_sd: () => 'sdformat',
  delete_records: () => 'delete_records',
  fota_web: () => 'web_connect',
  get_gps: () => 'getgps',
  immobilize: () => 'setdigout 1',
  unimmobilize: () => 'setdigout 0',
  set_odometer: (p) => {
    const km = needOdometer(p);
    return typeof km === 'number' ? `odoset:${km}` : km;
  },
  reset: () => 'cpureset',
};

/**
 * Ruptela SMS commands carried in an "SMS via GPRS" frame (command 108). The leading space is the
 * empty SMS password, as in the upstream encoder vector (` Setio 2,1`). Immobilize drives DOUT1.
 */
const RUPTELA: Partial<Record<CommandType, TextBuilder>> = {
  custom: needData,
  get_version: () => ' version',
  get_gps: () => ' coords',
  output1_on: () => ' Setio 1,1',
  output1_off: () => ' Setio 1,0',
  output2_on: () => ' Setio 2,1',
  output2_off: () => ' Setio 2,0',
  immobilize: () => ' Setio 1,1',
  unimmobilize: () => ' Setio 1,0',
  reset: () => ' reset',
};

/** iStartek `$$` payloads: 900,<output>,<state> switches an output (Traccar's engine stop/resume). */
const ISTARTEK: Partial<Record<CommandType, TextBuilder>> = {
  custom: needData,
  output1_on: () => '900,1,1',
  output1_off: () => '900,1,0',
  output2_on: () => '900,2,1',
  output2_off: () => '900,2,0',
  immobilize: () => '900,1,1',
  unimmobilize: () => '900,1,0',
};

/** GoSafe: no public command set beyond raw text; custom text is written as given. */
const GOSAFE: Partial<Record<CommandType, TextBuilder>> = {
  custom: needData,
};

/** Door technologies has no public protocol (see the package README); nothing can be sent. */
const DOOR: Partial<Record<CommandType, TextBuilder>> = {};

const TABLES: Record<DeviceType, Partial<Record<CommandType, TextBuilder>>> = {
  teltonika: TELTONIKA,
  ruptela: RUPTELA,
  gosafe: GOSAFE,
  istartek: ISTARTEK,
  door_technologies: DOOR,
};

/** Command types a device type can receive, in the spec's order (for GET /v1/device/commands/supported). */
export function supportedCommands(type: DeviceType): CommandType[] {
  const table = TABLES[type];
  return table ? commandTypes.filter((t) => table[t] !== undefined) : [];
}

/** The whole matrix: device type -> supported command types. */
export function supportedCommandMatrix(): Record<DeviceType, CommandType[]> {
  return {
    teltonika: supportedCommands('teltonika'),
    ruptela: supportedCommands('ruptela'),
    gosafe: supportedCommands('gosafe'),
    door_technologies: supportedCommands('door_technologies'),
    istartek: supportedCommands('istartek'),
  };
}

/**
 * Encodes a spec command for a device type into the bytes to write on its connection. Never throws:
 * an unsupported command is `unsupported_command`, missing/invalid parameters `invalid_argument`.
 */
export function encodeDeviceCommand(
  type: DeviceType,
  imei: string,
  command: DeviceCommand,
): EncodeCommandResult {
  const table = TABLES[type];
  const build = table?.[command.type];
  if (!build) {
    return {
      ok: false,
      error: protocolError('unsupported_command', `${command.type} is not supported by ${type} devices`),
    };
  }
  const text = build(command.params ?? {});
  if (typeof text !== 'string') return { ok: false, error: text };
  const needsPasswordVerification = command.type === 'immobilize' || command.type === 'unimmobilize';
  const raw = command.type === 'custom' ? tryFromHex(text) : undefined;
  try {
    let bytes: Uint8Array;
    switch (type) {
      case 'teltonika':
        bytes = encodeTeltonikaCommand(text, command.type === 'custom' ? 'auto' : 'text');
        break;
      case 'ruptela':
        // Like Traccar: a custom hex string is a complete ready-made frame.
        bytes =
          raw && raw.length > 0
            ? raw
            : encodeRuptelaServerFrame(100 + RUPTELA_CMD_SMS_VIA_GPRS, asciiToBytes(text));
        break;
      case 'istartek':
        if (!/^\d{1,20}$/.test(imei))
          return { ok: false, error: protocolError('bad_imei', 'IMEI must be digits') };
        bytes = encodeIStartekCommand(imei, text);
        break;
      case 'gosafe':
        // Text commands are line based: a `#`-terminated GoSafe sentence goes as is, anything else gets CRLF.
        bytes = asciiToBytes(text.endsWith('#') ? text : `${text}\r\n`);
        break;
      default:
        return { ok: false, error: protocolError('unsupported_command', `no encoder for ${type}`) };
    }
    return {
      ok: true,
      command: { bytes, text, needsPasswordVerification, answerKey: commandAnswerKey(type, bytes, text) },
    };
  } catch (caught) {
    return {
      ok: false,
      error: protocolError('invalid_argument', caught instanceof Error ? caught.message : String(caught)),
    };
  }
}

/**
 * How a device's answer is matched to the command it answers. None of the five protocols carries a
 * per-command id in the answer, but some say WHICH KIND of command they answer; the key is that kind:
 *
 * - Ruptela: the answer's command id is the request's minus 100 (configuration 102 -> 2, version
 *   103 -> 3, firmware 104 -> 4, set IO 117 -> 17), except SMS via GPRS 108 -> 7 (all our spec commands
 *   are SMS texts in 108 frames): key `ruptela:<answer id>`.
 * - iStartek: the answer frame's 3-hex type repeats the command code (`$$..,900,1,1` -> `&&..,900,...`):
 *   key `istartek:<code>`; a custom payload without a leading 3-hex code matches any answer.
 * - Teltonika: Codec 12 answers (type 0x06, and Codec 13 replies of firmwares that timestamp them)
 *   carry only text; the device executes commands one at a time and answers in order: key `teltonika`.
 * - GoSafe: text answers, no command echo we can rely on; in order: key `gosafe`.
 *
 * The command service gives an answer to the OLDEST sent command of the device whose key equals the
 * answer's key (or whose key is null). So two commands of different kinds in flight at once are
 * matched correctly, and commands of the same kind are matched first-in first-out, which is the order
 * the devices execute them in.
 */
export function commandAnswerKey(type: DeviceType, bytes: Uint8Array, text: string): string | null {
  switch (type) {
    case 'teltonika':
      return 'teltonika';
    case 'gosafe':
      return 'gosafe';
    case 'ruptela':
      // Frame: 2-byte length, command id, payload, CRC. Server commands are 100 + the answer's id,
      // except SMS via GPRS (108), answered by command 7.
      if (bytes.length < 3 || bytes[2]! < 100) return null;
      return bytes[2] === 100 + RUPTELA_CMD_SMS_VIA_GPRS
        ? `ruptela:${RUPTELA_CMD_SMS_VIA_GPRS_RESPONSE}`
        : `ruptela:${bytes[2]! - 100}`;
    case 'istartek': {
      const code = /^([0-9A-Fa-f]{3})(?:,|$)/.exec(text);
      return code ? `istartek:${code[1]!.toUpperCase()}` : null;
    }
    default:
      return null;
  }
}

/** The key of a device answer, to compare with {@link EncodedCommand.answerKey}. */
export function answerKeyOf(response: CommandResponse): string {
  switch (response.protocol) {
    case 'ruptela':
      return `ruptela:${response.responseType}`;
    case 'istartek':
      return `istartek:${String(response.responseType).toUpperCase()}`;
    default:
      return response.protocol;
  }
}
