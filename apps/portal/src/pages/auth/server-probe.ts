/** Seconds between automatic checks on the server-unreachable page. */
export const RETRY_SECONDS = 10;

/**
 * True when the API answers at all: any HTTP answer from /v1/auth (401 without a token is fine) counts,
 * except the gateway errors a proxy gives while the API process is down.
 */
export async function probeApi(doFetch: typeof fetch): Promise<boolean> {
  try {
    const response = await doFetch('/v1/auth', { method: 'GET', cache: 'no-store' });
    return ![502, 503, 504].includes(response.status);
  } catch {
    return false;
  }
}

/** Only same-app paths are followed back (no open redirect); default home. */
export function safeReturnPath(from: string | null): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/server-unreachable')) {
    return '/dashboard';
  }
  return from;
}
