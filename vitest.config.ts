import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["app/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    globalSetup: [
      // Builds the production bundle once (when stale) for the tests that start `node server.js`.
      "tests/integration/global-setup.ts",
      // Migrates one database of each kind; every test's fresh database is a copy of it.
      "tests/integration/database-templates-setup.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: files run in parallel, each on its own fresh databases.
    maxWorkers: 2,
    // CI exports CI (.ci/run): there a stray `.only` fails the run instead of quietly running one test.
    allowOnly: !process.env.CI,
    // Fails a test that logs an error it did not declare (tests/support/error-logs.ts).
    setupFiles: ["tests/support/error-log-guard.ts"],
  },
});
