import { describe, expect, it } from 'vitest';
import { loginInputSchema } from '@fleet/api-client';
import { loginBody } from './login-body';

describe('loginBody', () => {
  it.each([
    ['demo@fleet.test', { email: 'demo@fleet.test', password: 'p' }],
    ['  demo@fleet.test ', { email: 'demo@fleet.test', password: 'p' }],
    ['+971 50-123 4567', { phone: '+971501234567', password: 'p' }],
    ['bad', { email: 'bad', password: 'p' }],
    ['', { email: undefined, password: 'p' }],
  ])('%s', (identifier, expected) => {
    expect(loginBody(identifier, 'p')).toEqual(expected);
  });

  it('an empty identifier gets the contract\'s "Email is required"', () => {
    const parsed = loginInputSchema.safeParse(loginBody('', 'p'));
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.error.issues[0]?.message).toBe('Email is required');
  });
});
