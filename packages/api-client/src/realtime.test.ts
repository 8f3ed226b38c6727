import { describe, expect, it } from 'vitest';
import { U1, U2, deviceCommand, location, notification } from '../test/fixtures';
import {
  PING_MESSAGE,
  parseRealtimeMessage,
  realtimeDataSchemas,
  realtimeEvents,
  websocketPath,
  websocketUrl,
} from './realtime';

describe('websocketPath', () => {
  it('builds /ws/{company}/{user}', () => {
    expect(websocketPath(U1, U2)).toBe(`/ws/${U1}/${U2}`);
    expect(websocketPath('a/b', 'c')).toBe('/ws/a%2Fb/c');
  });
  it.each([
    ['', U2, 'company uuid is required'],
    [U1, '', 'user uuid is required'],
  ])('refuses missing identifiers (%j, %j)', (company, user, message) => {
    expect(() => websocketPath(company, user)).toThrow(message);
  });
});

describe('websocketUrl', () => {
  it.each([
    ['http://127.0.0.1:8080/', 'tok en', `ws://127.0.0.1:8080/ws/${U1}/${U2}?token=tok%20en`],
    ['https://api.example.com', undefined, `wss://api.example.com/ws/${U1}/${U2}`],
    ['wss://api.example.com', 't', `wss://api.example.com/ws/${U1}/${U2}?token=t`],
  ])('%s', (base, token, expected) => {
    expect(websocketUrl(base, U1, U2, token)).toBe(expected);
  });
});

describe('real-time messages', () => {
  it.each([
    [JSON.stringify(PING_MESSAGE), { event: 'ping' }],
    ['{"event":"pong"}', { event: 'pong' }],
    [
      JSON.stringify({ event: 'device-location', path: U1, data: location }),
      { event: 'device-location', path: U1 },
    ],
    ['{"event":"hello"}', null],
    ['not json', null],
    ['{"path":"x"}', null],
  ])('%s', (text, expected) => {
    const parsed = parseRealtimeMessage(text);
    if (expected === null) expect(parsed).toBeNull();
    else expect(parsed).toMatchObject(expected);
  });

  it('has a data schema for every event kind', () => {
    expect(Object.keys(realtimeDataSchemas).sort()).toEqual([...realtimeEvents].sort());
    expect(realtimeDataSchemas['device-location'].safeParse({ ...location, vehicle_uuid: U1 }).success).toBe(
      true,
    );
    expect(realtimeDataSchemas['device-location'].safeParse(location).success).toBe(false);
    expect(realtimeDataSchemas.notification.safeParse(notification).success).toBe(true);
    expect(realtimeDataSchemas['device-command-response'].safeParse(deviceCommand).success).toBe(true);
    expect(realtimeDataSchemas.pong.safeParse(undefined).success).toBe(true);
  });
});
