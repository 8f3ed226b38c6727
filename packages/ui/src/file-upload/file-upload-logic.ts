import { IMAGE_MAX_SIZE_MB } from '@fleet/core';

/** Default image limit: @fleet/core's IMAGE_MAX_SIZE_MB (5 MB; the spec leaves the value open). */
export const DEFAULT_IMAGE_MAX_MB = IMAGE_MAX_SIZE_MB;

export type FileCheck = { ok: true } | { ok: false; reason: 'type' | 'size' };

/** An image file strictly below `maxMb` megabytes (1 MB = 1024 * 1024 bytes) passes. */
export function checkImageFile(
  file: { type: string; size: number },
  maxMb: number = DEFAULT_IMAGE_MAX_MB,
): FileCheck {
  if (!(maxMb > 0)) throw new RangeError(`maxMb must be a positive number, got ${maxMb}`);
  if (!file.type.startsWith('image/')) return { ok: false, reason: 'type' };
  if (file.size >= maxMb * 1024 * 1024) return { ok: false, reason: 'size' };
  return { ok: true };
}
