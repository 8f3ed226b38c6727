import { describe, expect, it } from 'vitest';
import { mailtoUrl, mapsUrl } from './share';

describe('share links', () => {
  it('points a maps service at the coordinates', () => {
    expect(mapsUrl(25.2048, 55.2708)).toBe(
      'https://www.google.com/maps/search/?api=1&query=25.204800,55.270800',
    );
  });

  it('encodes the e-mail subject and body', () => {
    expect(mailtoUrl('Location of D 1', 'See https://x/s?a=1&b=2')).toBe(
      'mailto:?subject=Location%20of%20D%201&body=See%20https%3A%2F%2Fx%2Fs%3Fa%3D1%26b%3D2',
    );
  });
});
