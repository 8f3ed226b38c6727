import { describe, expect, it } from 'vitest';
import { UnknownThrottle } from './unknown-throttle';

describe('UnknownThrottle', () => {
  it('lets `limit` refusals per address and minute through, then counts the rest as dropped until the window ends', () => {
    let t = 0;
    const th = new UnknownThrottle(2, 60_000, () => t);
    expect(th.blocked('1.2.3.4')).toBe(false);
    expect(th.refused('1.2.3.4', '111', 'teltonika')).toBe(true);
    expect(th.refused('1.2.3.4', '111', 'teltonika')).toBe(true);
    expect(th.blocked('1.2.3.4')).toBe(true);
    expect(th.refused('1.2.3.4', '111', 'teltonika')).toBe(false);
    expect(th.refused('1.2.3.4', '111', 'teltonika')).toBe(false);
    expect(th.blocked('1.2.3.4')).toBe(true);
    expect(th.blocked('5.6.7.8')).toBe(false);
    expect(th.drain()).toEqual([]);
    t = 60_000;
    expect(th.blocked('1.2.3.4')).toBe(false);
    expect(th.drain()).toEqual([{ address: '1.2.3.4', imei: '111', protocol: 'teltonika', dropped: 2 }]);
    expect(th.refused('1.2.3.4', '222', 'gosafe')).toBe(true);
  });
});
