import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE_MAX_MB, checkImageFile } from './file-upload-logic';

const MB = 1024 * 1024;

describe('checkImageFile', () => {
  it('defaults to 5 MB', () => expect(DEFAULT_IMAGE_MAX_MB).toBe(5));
  it.each([
    [{ type: 'image/png', size: 1000 }, 5, { ok: true }],
    [{ type: 'image/jpeg', size: 5 * MB - 1 }, 5, { ok: true }],
    [{ type: 'image/jpeg', size: 5 * MB }, 5, { ok: false, reason: 'size' }],
    [{ type: 'image/webp', size: 2 * MB }, 1, { ok: false, reason: 'size' }],
    [{ type: 'application/pdf', size: 10 }, 5, { ok: false, reason: 'type' }],
    [{ type: '', size: 10 }, 5, { ok: false, reason: 'type' }],
  ])('%j with %i MB -> %j', (file, max, expected) => {
    expect(checkImageFile(file, max)).toEqual(expected);
  });
  it.each([0, -1, Number.NaN])('rejects a limit of %d', (max) => {
    expect(() => checkImageFile({ type: 'image/png', size: 1 }, max)).toThrow(RangeError);
  });
});
