# ED-Card: the built app only (dist/, production dependencies, migrations), run as the unprivileged
# `node` user. Build: docker build -t ed-card .   Several instances: deploy/compose.yaml.

# --- build: install everything, compile server and client, then drop the dev dependencies -------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig*.json vite.config.ts vite.customer.config.ts ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- runtime ----------------------------------------------------------------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root drizzle ./drizzle
# The app's files stay root-owned and read-only to it; only DATA_DIR is writable.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM reaches node directly (no shell): readiness turns false, requests drain, then it exits.
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
