import { describe, expect, it } from 'vitest';
import { nextCountdown, probeApi, safeReturnPath } from './server-probe';

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

  it('counts down to zero and stays there', () => {
    expect(nextCountdown(3)).toBe(2);
    expect(nextCountdown(1)).toBe(0);
    expect(nextCountdown(0)).toBe(0);
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
