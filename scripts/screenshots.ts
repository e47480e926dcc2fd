// `npm run screenshots`: the whole site at a glance. Starts the production server on a temporary data folder
// with the sample content of `npm run seed`, and writes every public page, every admin screen and the account
// pages at 1280 and 390 px wide, in the light and the dark theme, as PNG files into one folder.
//
//   npm run screenshots                       → screenshots/ (gitignored)
//   npm run screenshots -- --out /tmp/shots   → another folder
//   npm run screenshots -- --only /home       → only the pages named (repeatable), e.g. for a quick check
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { accountAndAuthPaths, adminRoutes } from "#tests/support/admin-routes.ts";
import { createUser } from "#tests/support/factories.ts";
import { storageIn } from "#tests/support/gallery-factories.ts";
import { trackRequestsOf, waitForQuiet } from "#tests/support/quiet-network.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";
import { ROOT, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { buildIfStale } from "./build-if-stale.js";

const PUBLIC_PATHS = [
  "/",
  "/home",
  "/links",
  "/faq",
  "/videos",
  "/legal-notice",
  "/privacy",
  "/auth",
  "/auth?mode=sign-up",
  "/auth/forgot",
  "/account-deleted",
  "/no-such-page",
];
const WIDTHS = [1280, 390] as const;
const THEMES = ["light", "dark"] as const;
const SYSTEM_CHROMIUM = "/usr/bin/chromium";

/** The admin screens (pages, not uploads or downloads, and none that needs the id of a record) and the account. */
function signedInPaths(): string[] {
  const admin = adminRoutes()
    .filter((route) => route.page && !route.file.includes("$"))
    .map((route) => route.path);
  const account = accountAndAuthPaths().filter((p) => p.startsWith("/account") && !p.includes("?"));
  return [...admin, ...account];
}

/** A file name for a page: `/admin/settings` → `admin-settings`, `/` → `gallery`. */
export function slugOf(pagePath: string): string {
  const slug = pagePath
    .replace(/^\//, "")
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return slug || "gallery";
}

const { values } = parseArgs({
  options: { out: { type: "string", default: "screenshots" }, only: { type: "string", multiple: true } },
});
const outDir = path.resolve(values.out ?? "screenshots");
const only = values.only ?? [];
const wanted = (pagePath: string) => only.length === 0 || only.includes(pagePath);

// The production build, made first if stale (the server would make it too, but then slowly fail our wait).
buildIfStale();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-screenshots-"));
const database = openDatabase({ sqliteFile: path.join(dataDir, "vitrine.sqlite") });
let server: Awaited<ReturnType<typeof startServer>> | undefined;
const browser = await chromium.launch({
  executablePath: fs.existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
try {
  await migrateToLatest(database.db, database.kind);
  await insertMissingDefaults(database.db);
  const admin = await createUser(database.db, { admin: true, email: "admin@example.com" });
  await addSampleContent(database.db, storageIn(dataDir));
  const session = await createSessionCookie(database.db, admin.id, TEST_AUTH_SECRET);
  server = await startServer({ dataDir, authSecret: TEST_AUTH_SECRET });
  const origin = server.origin;

  fs.mkdirSync(outDir, { recursive: true });
  let count = 0;
  const shots: { paths: string[]; signedIn: boolean }[] = [
    { paths: PUBLIC_PATHS.filter(wanted), signedIn: false },
    { paths: signedInPaths().filter(wanted), signedIn: true },
  ];
  for (const { paths, signedIn } of shots) {
    if (paths.length === 0) continue;
    for (const theme of THEMES) {
      for (const width of WIDTHS) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
        const cookies: { name: string; value: string; url: string }[] = [{ name: "theme", value: theme, url: origin }];
        if (signedIn) cookies.push({ name: session.name, value: session.value, url: origin });
        await context.addCookies(cookies);
        trackRequestsOf(context);
        const page = await context.newPage();
        for (const pagePath of paths) {
          await page.goto(`${origin}${pagePath}`);
          await waitForQuiet(page);
          // Pictures below the fold load lazily: scroll through once so the full-page picture shows them.
          await page.evaluate(async () => {
            for (let y = 0; y < document.body.scrollHeight; y += 600) {
              window.scrollTo(0, y);
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            window.scrollTo(0, 0);
          });
          await waitForQuiet(page);
          const prefix = signedIn ? "" : "public-";
          const file = path.join(outDir, `${prefix}${slugOf(pagePath)}-${width}-${theme}.png`);
          await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
          count++;
        }
        await context.close();
      }
    }
  }
  console.log(`${count} screenshots in ${path.relative(ROOT, outDir) || "."} (${outDir})`);
} finally {
  await browser.close();
  await server?.stop();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
