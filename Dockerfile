# Vitrine in a container. Not tested by CI (the test machines cannot run Docker): see docs/DEPLOY.md.

# --- build: install everything and make the production build ---
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# npm ci's preinstall runs the Node version check.
COPY scripts/check-node.cjs scripts/
RUN npm ci
COPY . .
RUN npm run build

# --- run: the same files (the command line runs from the sources), without the build caches ---
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Copied as one tree, so the build stays newer than its sources and the start never rebuilds.
COPY --from=build --chown=root:root /app /app
RUN mkdir -p /data && chown node:node /data
# The server writes only to /data; it runs as the image's unprivileged user.
USER node
VOLUME ["/data"]
EXPOSE 3000
# The slim image has no curl: Node's own fetch asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM lets requests in flight finish, then closes the database.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=16", "--min-semi-space-size=16", "--expose-gc", "server.js"]
