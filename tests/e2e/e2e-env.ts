import path from "node:path";

/** Shared by playwright.config.ts (which starts the server) and the fixtures (which write to its database). */
// E2E_PORT lets two checkouts on one machine run their browser tests at the same time.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = path.resolve("tmp/e2e-data");
export const E2E_SECRET = "e2e-secret-that-is-long-enough-for-better-auth-0123456789";
