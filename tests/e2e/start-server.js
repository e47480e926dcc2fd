// Starts the production server for the browser tests on a data directory no earlier run has touched.
import fs from "node:fs";

const dataDir = process.env.DATA_DIR;
if (!dataDir?.includes("tmp")) throw new Error(`Refusing to clear DATA_DIR=${dataDir}`);
fs.rmSync(dataDir, { recursive: true, force: true });
await import("../../server.js");
