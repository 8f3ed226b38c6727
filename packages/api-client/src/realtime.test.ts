import { describe, expect, it } from 'vitest';
import { U1, U2, deviceCommand, location, notification } from '../test/fixtures';
import {
  PING_MESSAGE,
  parseRealtimeFrame,
  parseRealtimeMessage,
  realtimeDataSchemas,
  realtimeFrameText,
  realtimeEvents,
  websocketPath,
  websocketUrl,
} from './realtime';

describe('websocketPath', () => {
  it('builds /ws/{company}/{user}', () => {
    expect(websocketPath(U1, U2)).toBe(`/ws/${U1}/${U2}`);
    expect(websocketPath('a/b', 'c')).toBe('/ws/a%2Fb/c');
  });
  it('refuses a missing company', () => {
    expect(() => websocketPath('', U2)).toThrow('company uuid is required');
  });
  it('leaves out a missing user (the socket client connects so; the server refuses it)', () => {
    expect(websocketPath(U1, '')).toBe(`/ws/${U1}`);
    expect(websocketPath(U1, null)).toBe(`/ws/${U1}`);
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

describe('websocketUrl as the socket client calls it', () => {
  it.each<[string, string, string | null | undefined, string | null | undefined, string]>([
    ['wss://api.example.com', 'a', 'b', undefined, 'wss://api.example.com/ws/a/b'],
    ['https://api.example.com/', 'a', 'b', 't k', 'wss://api.example.com/ws/a/b?token=t%20k'],
    ['http://localhost:8080//', 'a/1', null, null, 'ws://localhost:8080/ws/a%2F1'],
    ['  ws://h ', 'a', '', 'tok', 'ws://h/ws/a?token=tok'],
  ])('%s', (base, first, second, token, expected) => {
    expect(websocketUrl(base, first, second, token)).toBe(expected);
  });

  it('adds the connection language after the token, or alone', () => {
    expect(websocketUrl('https://h', 'a', 'b', 'tok', 'ar')).toBe('wss://h/ws/a/b?token=tok&locale=ar');
    expect(websocketUrl('https://h', 'a', 'b', null, 'en')).toBe('wss://h/ws/a/b?locale=en');
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

describe('real-time frames (one message or a batch, checked against the contract)', () => {
  const live = { ...location, vehicle_uuid: U1 };
  const msg = (event: string, data: unknown, path = U1) => ({ event, path, data });
  it.each<[string, unknown, { events: string[]; invalid: number }]>([
    ['one location', msg('device-location', live), { events: ['device-location'], invalid: 0 }],
    [
      'a batch of two kinds',
      [msg('device-location', live), msg('generic-device-location', live)],
      { events: ['device-location', 'generic-device-location'], invalid: 0 },
    ],
    ['pong', { event: 'pong' }, { events: ['pong'], invalid: 0 }],
    ['a notification', msg('notification', notification, U2), { events: ['notification'], invalid: 0 }],
    [
      'a command response',
      msg('device-command-response', deviceCommand),
      { events: ['device-command-response'], invalid: 0 },
    ],
    [
      'a location without its vehicle is dropped, the rest of the batch kept',
      [msg('device-location', location), msg('device-location', live)],
      { events: ['device-location'], invalid: 1 },
    ],
    [
      'a location with a bad speed',
      msg('device-location', { ...live, speed: -1 }),
      { events: [], invalid: 1 },
    ],
    ['an unknown event', msg('hello', {}), { events: [], invalid: 1 }],
    ['ping is not a server message', { event: 'ping' }, { events: [], invalid: 1 }],
    ['no path', { event: 'device-location', data: live }, { events: [], invalid: 1 }],
    ['not an object', [1, null], { events: [], invalid: 2 }],
    ['an empty batch', [], { events: [], invalid: 0 }],
  ])('%s', (_name, payload, expected) => {
    const frame = parseRealtimeFrame(JSON.stringify(payload));
    expect(frame.messages.map((m) => m.event)).toEqual(expected.events);
    expect(frame.invalid).toBe(expected.invalid);
    expect(frame.error).toBe(expected.invalid > 0 ? 'outside the contract' : undefined);
  });

  it('counts a frame that is not JSON as one invalid message', () => {
    expect(parseRealtimeFrame('{oops')).toEqual({ messages: [], invalid: 1, error: 'not JSON' });
  });

  it('keeps the data of a valid message', () => {
    const frame = parseRealtimeFrame(JSON.stringify(msg('device-location', live)));
    expect(frame.messages[0]).toEqual({ event: 'device-location', path: U1, data: live });
  });

  it('writes one message alone and several as an array, without serialising them again', () => {
    const a = JSON.stringify(msg('device-location', live));
    expect(realtimeFrameText([a])).toBe(a);
    expect(JSON.parse(realtimeFrameText([a, a]))).toEqual([JSON.parse(a), JSON.parse(a)]);
  });
});
