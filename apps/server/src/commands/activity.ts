/**
 * What the user activity log keeps of a sent device command: who (the log's user), when (the log's
 * time), the device and the command with the attributes that say what it did, never a secret.
 *
 * Attributes are kept by an allow-list per command type, so a field added to the contract later is
 * left out until someone decides it is safe:
 * - change_ip_port: host and port (where the device is sent to report: the point of the audit);
 * - set_odometer: the value;
 * - fota_web: the firmware URL without user info, query or fragment (a signed or password-bearing
 *   download link must not be copied into a log read by every company admin);
 * - custom: the text is NOT kept, only its length: device command syntaxes put the device password,
 *   APN credentials or SMS login in the text (Teltonika "setparam 2003:...", Ruptela password prefix),
 *   and the command history of the device (device-commands.view) already holds the payload for those
 *   allowed to see it.
 * The password verification token of immobilize / unimmobilize is never part of it.
 */
export function commandActivityAttributes(
  type: string,
  attributes: Record<string, unknown>,
): Record<string, unknown> {
  switch (type) {
    case 'change_ip_port':
      return pick(attributes, ['host', 'port']);
    case 'set_odometer':
      return pick(attributes, ['value']);
    case 'fota_web': {
      const url = attributes['url'];
      if (typeof url !== 'string') return {};
      try {
        const u = new URL(url);
        return { url: `${u.protocol}//${u.host}${u.pathname}` };
      } catch {
        return {};
      }
    }
    case 'custom': {
      const text = attributes['text'];
      return typeof text === 'string' ? { text_length: text.length } : {};
    }
    default:
      return {};
  }
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (source[k] !== undefined) out[k] = source[k];
  return out;
}
