import type { ApiClient } from '@fleet/api-client';
import type { PushApi, PushTokenRegistration } from '@fleet/core';

const platforms = ['android', 'ios', 'web'] as const;
type TokenPlatform = (typeof platforms)[number];

function tokenPlatform(name: string): TokenPlatform {
  if ((platforms as readonly string[]).includes(name)) return name as TokenPlatform;
  throw new Error(`Unsupported push platform: ${name}`);
}

/**
 * @fleet/core's {@link PushApi} over the typed API client: POST v1/fcm-tokens/register and
 * v1/fcm-tokens/deactivate. Failures reject with the client's ApiError, whose `status` lets the
 * state machine tell a 401 (token not stored) from other failures (token kept locally).
 */
export function createPushApi(client: Pick<ApiClient, 'request'>): PushApi {
  return {
    register: (body: PushTokenRegistration) =>
      client.request('fcmTokens.register', { body: { ...body, platform: tokenPlatform(body.platform) } }),
    deactivate: (token: string) => client.request('fcmTokens.deactivate', { body: { token } }),
  };
}
