# The project's image: worker, webhook receiver and HTTP API all run from it (docker-compose.yml picks the command).
# tsx runs the TypeScript sources directly; the worker bundles workflows/ itself at start.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# npm install, not npm ci: npm 11 lockfiles hold only one platform's optional binaries (see .ci/run).
RUN npm install --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
USER node
CMD ["npm", "run", "worker"]
