export const RUPTELA_CMD_RECORDS = 1;
export const RUPTELA_CMD_DEVICE_CONFIGURATION = 2;
export const RUPTELA_CMD_DEVICE_VERSION = 3;
export const RUPTELA_CMD_FIRMWARE_UPDATE = 4;
export const RUPTELA_CMD_SET_CONNECTION = 5;
export const RUPTELA_CMD_SET_ODOMETER = 6;
export const RUPTELA_CMD_SMS_VIA_GPRS_RESPONSE = 7;
export const RUPTELA_CMD_SMS_VIA_GPRS = 8;
export const RUPTELA_CMD_DTCS = 9;
export const RUPTELA_CMD_IDENTIFICATION = 15;
export const RUPTELA_CMD_HEARTBEAT = 16;
export const RUPTELA_CMD_SET_IO = 17;
export const RUPTELA_CMD_FILES = 37;
export const RUPTELA_CMD_EXTENDED_RECORDS = 68;

/**
 * Largest frame we accept. Ruptela devices keep a message under 1 KiB of payload (the records vector
 * is 1023 bytes); 4 KiB leaves room for file transfers and is refused beyond that.
 */
export const RUPTELA_MAX_FRAME_SIZE = 4096;

/** ACK of a records message (command 1 or 68): `0002 64 01 13bc`. */
export const RUPTELA_RECORDS_ACK: Uint8Array = Uint8Array.of(0x00, 0x02, 0x64, 0x01, 0x13, 0xbc);
/** ACK of a DTC message (command 9): `0002 6d 01 c4a4`. */
export const RUPTELA_DTCS_ACK: Uint8Array = Uint8Array.of(0x00, 0x02, 0x6d, 0x01, 0xc4, 0xa4);
