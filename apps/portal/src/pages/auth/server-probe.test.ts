import { describe, expect, it } from 'vitest';
import { probeApi, safeReturnPath } from './server-probe';

const answer = (status: number) => (async () => new Response(null, { status })) as unknown as typeof fetch;

describe('server probe', () => {
  it.each([
    [200, true],
    [401, true],
    [404, true],
    [502, false],
    [503, false],
    [504, false],
  ])('HTTP %i -> reachable %s', async (status, expected) => {
    expect(await probeApi(answer(status))).toBe(expected);
  });

  it('a network failure is unreachable', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect(await probeApi(failing)).toBe(false);
  });

  it.each([
    [null, '/dashboard'],
    ['/dashboard/vehicles?page=2', '/dashboard/vehicles?page=2'],
    ['//evil.example', '/dashboard'],
    ['https://evil.example', '/dashboard'],
    ['/server-unreachable', '/dashboard'],
  ])('return path %s -> %s', (from, expected) => {
    expect(safeReturnPath(from)).toBe(expected);
  });
});
