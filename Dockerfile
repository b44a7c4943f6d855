# One image for the API, the worker and the admin CLI.
# Debian-based on purpose: the Temporal worker's native module needs glibc (no musl/Alpine build).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Compiles to dist/ and prebuilds dist/workflow-bundle.js, so workers start without webpack.
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# Documents live here unless S3 is configured; the named volume inherits this ownership.
RUN mkdir -p /data/storage && chown node:node /data/storage
USER node
EXPOSE 3000
# The compose file picks the process: dist/api/main.js, dist/worker/main.js or dist/scripts/admin.js.
CMD ["node", "dist/api/main.js"]
