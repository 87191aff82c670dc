# The project's image: worker, webhook receiver and HTTP API all run from it (docker-compose.yml picks the command).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
USER node
CMD ["npm", "run", "worker"]
