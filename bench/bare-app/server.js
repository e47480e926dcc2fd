// The bare app's server: the adapter's documented minimum (static files, then every request to React Router).
// Started by `npm run bench` with PORT, HOST and BARE_SQLITE_FILE; run `npm run bench:build` first.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import express from "express";

const root = path.dirname(fileURLToPath(import.meta.url));
const app = express();
app.disable("x-powered-by");
app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(root, "build/client"), { maxAge: "1h", index: false }));
app.use(createRequestHandler({ build: await import("./build/server/index.js") }));

const port = Number(process.env.PORT ?? 3100);
const server = app.listen(port, process.env.HOST ?? "127.0.0.1", () => {
  console.log(`Bare app is running on http://${process.env.HOST ?? "127.0.0.1"}:${port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
