import { describe, expect, it } from 'vitest';
import {
  apiFailureMessage,
  errorStatus,
  fieldErrors,
  isNetworkError,
  isUnauthorized,
  messageOf,
  toastErrorMessage,
  type ApiFailure,
} from './api-failure';

describe('apiFailureMessage', () => {
  const cases: [string, ApiFailure, string][] = [
    [
      'server message',
      { kind: 'response', status: 422, statusText: 'Unprocessable', body: { message: 'Bad plate' } },
      'Bad plate',
    ],
    [
      'blank message falls back',
      { kind: 'response', status: 500, statusText: 'Server Error', body: { message: '  ' } },
      'Error 500: Server Error',
    ],
    [
      'non-string message',
      { kind: 'response', status: 404, statusText: 'Not Found', body: { message: 42 } },
      'Error 404: Not Found',
    ],
    [
      'no body',
      { kind: 'response', status: 503, statusText: 'Service Unavailable', body: null },
      'Error 503: Service Unavailable',
    ],
    [
      'text body',
      { kind: 'response', status: 502, statusText: 'Bad Gateway', body: '<html>' },
      'Error 502: Bad Gateway',
    ],
    ['no response', { kind: 'no-response' }, 'No response received from server'],
    ['error message', { kind: 'error', error: new Error('boom') }, 'boom'],
    ['object with message', { kind: 'error', error: { message: 'plain' } }, 'plain'],
    ['string error', { kind: 'error', error: 'text error' }, 'text error'],
    ['empty error message', { kind: 'error', error: new Error('') }, 'An error occurred'],
    ['undefined error', { kind: 'error', error: undefined }, 'An error occurred'],
  ];
  it.each(cases)('%s', (_name, failure, expected) => {
    expect(apiFailureMessage(failure)).toBe(expected);
  });
});

describe('Arabic texts of core (server messages pass through)', () => {
  it.each<[ApiFailure, string]>([
    [{ kind: 'response', status: 500, statusText: 'Server Error', body: null }, 'خطأ 500: Server Error'],
    [{ kind: 'response', status: 422, statusText: 'x', body: { message: 'رسالة الخادم' } }, 'رسالة الخادم'],
    [{ kind: 'no-response' }, 'لم يتم تلقي أي رد من الخادم'],
    [{ kind: 'error', error: null }, 'حدث خطأ'],
  ])('%j', (failure, expected) => {
    expect(apiFailureMessage(failure, 'ar')).toBe(expected);
  });

  it('toast texts', () => {
    expect(toastErrorMessage(new TypeError('Failed to fetch'), 'ar')).toBe(
      'حدث خطأ في الشبكة. قد يكون ذلك بسبب قيود CORS.',
    );
    expect(toastErrorMessage({}, 'ar')).toBe('حدث خطأ غير معروف');
  });
});

describe('isUnauthorized', () => {
  it.each<[ApiFailure, boolean]>([
    [{ kind: 'response', status: 401, statusText: 'Unauthorized', body: null }, true],
    [{ kind: 'response', status: 403, statusText: 'Forbidden', body: null }, false],
    [{ kind: 'no-response' }, false],
    [{ kind: 'error', error: { status: 401 } }, false],
  ])('%j -> %s', (failure, expected) => {
    expect(isUnauthorized(failure)).toBe(expected);
  });
});

describe('toastErrorMessage', () => {
  it.each<[string, unknown, string]>([
    [
      'chromium fetch',
      new TypeError('Failed to fetch'),
      'A network error occurred. This might be due to CORS restrictions.',
    ],
    [
      'firefox fetch',
      new TypeError('NetworkError when attempting to fetch resource.'),
      'A network error occurred. This might be due to CORS restrictions.',
    ],
    [
      'safari fetch',
      new TypeError('Load failed'),
      'A network error occurred. This might be due to CORS restrictions.',
    ],
    [
      'node fetch',
      new TypeError('fetch failed'),
      'A network error occurred. This might be due to CORS restrictions.',
    ],
    ['other TypeError', new TypeError('x is not a function'), 'x is not a function'],
    ['Error', new Error('Plate taken'), 'Plate taken'],
    ['empty Error', new Error(''), 'An unknown error occurred'],
    ['string', 'Just text', 'Just text'],
    ['empty string', '', 'An unknown error occurred'],
    ['number', 42, 'An unknown error occurred'],
    ['null', null, 'An unknown error occurred'],
    ['object', { message: 'not an Error' }, 'An unknown error occurred'],
  ])('%s', (_name, error, expected) => {
    expect(toastErrorMessage(error)).toBe(expected);
  });

  it('isNetworkError needs a TypeError', () => {
    expect(isNetworkError(new Error('Failed to fetch'))).toBe(false);
  });
});

describe('helpers', () => {
  it('messageOf', () => {
    expect(messageOf(null)).toBeUndefined();
    expect(messageOf('m')).toBeUndefined();
    expect(messageOf({ message: 'm' })).toBe('m');
  });

  it.each<[unknown, Record<string, string[]>]>([
    [null, {}],
    ['x', {}],
    [{ message: 'm' }, {}],
    [{ errors: null }, {}],
    [
      { errors: { email: ['Taken', 3], name: 'Required', age: [] } },
      { email: ['Taken'], name: ['Required'] },
    ],
  ])('fieldErrors(%j)', (body, expected) => {
    expect(fieldErrors(body)).toEqual(expected);
  });

  it.each<[unknown, number | undefined]>([
    [{ status: 401 }, 401],
    [{ status: '401' }, undefined],
    [null, undefined],
    ['x', undefined],
  ])('errorStatus(%j)', (error, expected) => {
    expect(errorStatus(error)).toBe(expected);
  });
});
