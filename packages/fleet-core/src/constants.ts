/**
 * Business constants of spec section 9. Values the spec leaves out ("not shown") are design
 * decisions documented next to them.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A vehicle whose latest record is older than this is inactive (spec: 30 days). */
export const INACTIVE_AFTER_MS = 30 * DAY_MS;
/** A vehicle is live when its latest record is newer than this and ignition is 1 (spec: 60 minutes). */
export const LIVE_WITHIN_MS = 60 * MINUTE_MS;
/** Page size of GET device-locations/vehicle/locations. */
export const LOCATION_PAGE_SIZE = 500;
/** Real-time keep-alive interval. */
export const PING_INTERVAL_MS = 30_000;
/** Real-time reconnect interval while the socket is not open. */
export const RECONNECT_INTERVAL_MS = 15_000;
/** Default toast timeout. */
export const TOAST_DEFAULT_TIMEOUT_MS = 5000;
/** Delay before opening the notification list for a notification already delivered at app start. */
export const DELIVERED_NOTIFICATION_DELAY_MS = 500;
/** A foreground push is re-shown as a local notification scheduled this far ahead. */
export const LOCAL_NOTIFICATION_DELAY_MS = 100;
/** Length of the random suffix of the generated device id. */
export const DEVICE_ID_RANDOM_LENGTH = 9;
/** Password minimum length: not shown in the spec; 8 is the product decision. */
export const PASSWORD_MIN_LENGTH = 8;
/** Image upload limit: not shown in the spec; 5 MB is the default, every builder takes an override. */
export const IMAGE_MAX_SIZE_MB = 5;
/** Default locale of the product. */
export const DEFAULT_LOCALE = 'en-US';
