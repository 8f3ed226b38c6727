# One image for every role of the fleet server (gateway, worker, api, or the embedded `all`).
# The role is chosen at run time with ROLE=...; see docker-compose.yml and the README's scale-out
# section.
#
# Stage 1 installs the workspace and builds the portal (the API nodes serve it from the same origin).
# Stage 2 is the runtime on a slim Node base, running as the unprivileged `node` user. The server runs
# its TypeScript sources through tsx (as `npm run start:cluster` does), so the runtime keeps the
# installed node_modules, devDependencies included, and the sources; build tools of the portal
# (vite, storybook, playwright browsers) are never downloaded (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD).

ARG NODE_VERSION=20.19

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    npm_config_fund=false \
    npm_config_audit=false
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/portal/package.json apps/portal/
COPY apps/mobile-capacitor/package.json apps/mobile-capacitor/
COPY packages/api-client/package.json packages/api-client/
COPY packages/device-protocols/package.json packages/device-protocols/
COPY packages/fleet-core/package.json packages/fleet-core/
COPY packages/ui/package.json packages/ui/
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build -w @fleet/portal

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8081 \
    HEALTH_HOST=0.0.0.0 \
    HEALTH_PORT=9100 \
    GATEWAY_HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
# API (8081), health and metrics (9100), device ports (Traccar's numbers).
EXPOSE 8081 9100 5027 5046 5055 5078 5222
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.HEALTH_PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The memory settings every server process runs with (apps/server/src/config/node-flags.ts says why):
# glibc reads these when the process starts, and the V8 flags are on the command line below.
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=1048576
# A cluster node (ROLE=gateway|worker|api with DATABASE_URL and NATS_URL). For the embedded
# one-process product use: command ["npm", "run", "start", "-w", "@fleet/server"].
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=50", "--import", "tsx", "--conditions=source", "apps/server/src/cluster/main.ts"]
