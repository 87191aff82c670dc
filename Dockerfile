# syntax=docker/dockerfile:1
# The project's image: worker, webhook receiver, HTTP API and codec server all run from it, compiled
# (docker-compose.yml and deploy/kubernetes pick the entry point). The build stage installs exactly the lockfile
# (npm ci), compiles TypeScript and prebuilds the workflow bundles (plain and traced), then drops the development
# dependencies; the runtime stage holds only what runs.
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Without scripts: the package's own `prepare` builds from sources not copied yet (the build runs below); no
# dependency's install script is needed to compile and bundle.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24.21.0-bookworm-slim
# tini as PID 1: it forwards SIGTERM to node (which then drains and stops in order) and reaps zombies.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini=0.19.0-1+b3 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
# Owned by root and run as the image's unprivileged node user (uid 1000): the code cannot rewrite itself.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER 1000:1000
# /healthz of the worker, the image's command, on WORKER_HEALTH_PORT; a container running another process passes
# --process receiver, api or codec-server (docker-compose.yml does).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "dist/src/entry/healthcheck.js", "--process", "worker"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/entry/worker.js"]
