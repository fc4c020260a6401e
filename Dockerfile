# syntax=docker/dockerfile:1
# homecare-sync: build on the current Node.js LTS, run as a non-root user with /data as volume.
# scripts/check-production-build.sh walks these steps without Docker in CI; keep both in step.

FROM node:24-bookworm-slim AS build
WORKDIR /build
# better-sqlite3 is a native addon: build it from source here, not in the runtime image.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/finish-build.mjs ./scripts/
# Pruning drops the dev dependencies, the simulator's and demo's among them (faker, pdf-lib).
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
# Set by the build (docker build --build-arg VERSION=… --build-arg REVISION=$(git rev-parse HEAD)
# --build-arg CREATED=$(date -u +%Y-%m-%dT%H:%M:%SZ)); the defaults mark a local build.
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="homecare-sync" \
      org.opencontainers.image.description="Integration daemon between a homecare management platform and a medical supplier's ERP" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.documentation="docs/operations.md" \
      org.opencontainers.image.base.name="docker.io/library/node:24-bookworm-slim"
ENV NODE_ENV=production \
    HOMECARE_SYNC_CONFIG=/config/homecare-sync.yaml \
    HOMECARE_SYNC_HEALTH_URL=http://127.0.0.1:9464/healthz
WORKDIR /app
COPY --from=build /build/node_modules ./node_modules
COPY --from=build /build/dist ./dist
COPY package.json ./
COPY config ./config
# `homecare-sync <command>` inside the container (docker compose exec, kubectl exec), as the docs
# write it: package.json's bin on PATH, started by its own `#!/usr/bin/env node`. The daemon
# itself starts from the ENTRYPOINT below, with its node flags.
RUN ln -s /app/dist/cli/main.js /usr/local/bin/homecare-sync && chmod 755 /app/dist/cli/main.js
RUN mkdir -p /data /config && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 9464
# The slim image has no curl: Node's own fetch asks the daemon's /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.HOMECARE_SYNC_HEALTH_URL).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# V8's young generation may grow to 2 x 16 MiB by default, mostly garbage of a pull or delivery
# burst; 2 x 4 MiB keeps the peak resident memory ~25 MiB lower for a few more short collections.
# The benchmarks start the daemon with these same flags (bench/support/daemonCommand.ts reads them).
ENTRYPOINT ["node", "--max-semi-space-size=4", "--v8-pool-size=2", "dist/cli/main.js"]
CMD ["run"]
