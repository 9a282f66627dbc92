# One image for every process kind: the command picks api, worker or migrate (see docker-compose.yml).
FROM node:20-slim
WORKDIR /app

# Dependencies first, so a source change does not reinstall them. tsx (a dev dependency) runs the
# TypeScript sources directly, so the full install is kept.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund && npm cache clean --force

COPY . .
USER node
EXPOSE 3000

# node itself, not `npm run api`: npm runs scripts through `sh -c`, which does not pass SIGTERM on,
# so `docker stop` would kill the process without its graceful shutdown.
CMD ["node", "--import", "tsx", "bin/api.ts"]
