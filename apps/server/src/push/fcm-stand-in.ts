import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the stand-in received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * Test double for Google's side over real HTTP: the OAuth2 token endpoint (POST /token) and the FCM
 * HTTP v1 send endpoint (POST /v1/projects/{id}/messages:send). It records every request and can be
 * told to answer 503 for the next N sends (with an optional Retry-After), or UNREGISTERED for
 * chosen device tokens.
 */
export class FcmStandIn {
  readonly requests: RecordedRequest[] = [];
  /** Sends still to fail with 503. */
  failNext = 0;
  retryAfter: string | null = null;
  readonly unregistered = new Set<string>();
  /** Canned answers for the next sends, used first-in first-out before any other rule. */
  readonly scripted: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
  private issued = 0;
  private server: Server | null = null;
  url = '';

  get tokenRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/token');
  }
  get sendRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/messages:send'));
  }

  /** Forgets requests, failure settings and issued tokens (between tests). */
  reset(): void {
    this.requests.length = 0;
    this.failNext = 0;
    this.retryAfter = null;
    this.unregistered.clear();
    this.scripted.length = 0;
    this.issued = 0;
  }

  async listen(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '';
        this.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
        const json = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(payload));
        };
        if (req.method === 'POST' && path === '/token') {
          this.issued++;
          json(200, { access_token: `access-${this.issued}`, expires_in: 3600, token_type: 'Bearer' });
          return;
        }
        const m = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
        if (req.method === 'POST' && m) {
          const canned = this.scripted.shift();
          if (canned) {
            json(canned.status, canned.body, canned.headers);
            return;
          }
          if (this.failNext > 0) {
            this.failNext--;
            json(
              503,
              {
                error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' },
              },
              this.retryAfter ? { 'retry-after': this.retryAfter } : {},
            );
            return;
          }
          let token = '';
          try {
            token = (JSON.parse(body) as { message: { token: string } }).message.token;
          } catch {
            json(400, { error: { code: 400, message: 'bad JSON', status: 'INVALID_ARGUMENT' } });
            return;
          }
          if (this.unregistered.has(token)) {
            json(404, {
              error: {
                code: 404,
                message: 'Requested entity was not found.',
                status: 'NOT_FOUND',
                details: [
                  {
                    '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
                    errorCode: 'UNREGISTERED',
                  },
                ],
              },
            });
            return;
          }
          json(200, { name: `projects/${m[1]}/messages/${this.sendRequests.length}` });
          return;
        }
        json(404, { error: { code: 404, message: 'no such route', status: 'NOT_FOUND' } });
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((ok) => s.close(() => ok()));
  }
}
