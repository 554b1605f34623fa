# syntax=docker/dockerfile:1
# Vidensbank: one image for the API (which also serves the built web app).
# Stages: deps (all dependencies, once) → build (the web app) → prod-deps (production dependencies only) → runtime.
# The runtime runs as the unprivileged `node` user and needs MONGODB_URI (or a volume on DATA_DIR for the
# embedded store) and JWT_SECRET; see README "Docker".
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY web/package.json web/
COPY cli/package.json cli/
COPY packages/shared/package.json packages/shared/
COPY packages/embedded-mongo/package.json packages/embedded-mongo/

FROM manifests AS deps
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build -w web && npm run build -w api

FROM manifests AS prod-deps
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app ./
COPY api ./api
COPY cli ./cli
COPY packages ./packages
COPY content ./content
COPY --from=build /app/web/dist ./web/dist
# the server bundled into one module (api/scripts/bundle.mjs): a start loads it instead of transpiling every file
COPY --from=build /app/api/dist ./api/dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# ready: the store answers and the start-up warm-up is done (api/src/warmup.ts; /readyz answers 503 "warming")
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "api/dist/main.mjs"]
