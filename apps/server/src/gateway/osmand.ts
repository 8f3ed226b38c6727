import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { OSMAND_MAX_BODY_SIZE, parseOsmAndRequest } from '@fleet/device-protocols';
import { errText, type GatewayContext } from './context';
import { ingestGeneric } from './ingest';

/**
 * The OsmAnd HTTP transport (generic trackers and phone apps): one request = one position, answered 200
 * once stored, 403 for an unknown device, 400 for a malformed request (archived), 503 on a storage failure.
 */
export function listenOsmAnd(
  ctx: GatewayContext,
  port: number,
  serve: (server: HttpServer) => void,
): Promise<number> {
  const { config, stats, log, now } = ctx;
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > OSMAND_MAX_BODY_SIZE) {
        res.writeHead(413).end();
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      void (async () => {
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const parsed = parseOsmAndRequest(
          {
            query: q >= 0 ? url.slice(q + 1) : '',
            body: Buffer.concat(chunks).toString('utf8'),
            ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
          },
          { now: () => now().getTime() },
        );
        if (parsed.error) {
          stats.framesRejected++;
          log.warn(
            `gateway: osmand ${req.socket.remoteAddress ?? '?'}: ${parsed.error.code}: ${parsed.error.message}`,
          );
          // Archived as `<method> <url>\n<content-type>\n\n<body>` (./replay.ts reads it back).
          const idMatch = /[?&](?:id|deviceid)=([0-9A-Za-z]{4,32})(?:&|$)/.exec(url);
          await ctx.archive(
            'osmand',
            Buffer.concat([
              Buffer.from(`${req.method ?? 'GET'} ${url}\n${req.headers['content-type'] ?? ''}\n\n`),
              ...chunks,
            ]),
            `${parsed.error.code}: ${parsed.error.message}`,
            req.socket.remoteAddress ?? null,
            idMatch?.[1],
            null,
          );
          res.writeHead(400).end();
          return;
        }
        const status = await ingestGeneric(ctx, [parsed.record], 'osmand', req.socket.remoteAddress ?? null);
        res.writeHead(status).end();
      })().catch((err: unknown) => {
        log.error(`gateway: osmand: ${errText(err)}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  serve(server);
  server.keepAliveTimeout = config.GATEWAY_IDLE_TIMEOUT_S * 1000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: config.GATEWAY_HOST }, () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}
