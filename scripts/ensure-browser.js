// Before the browser tests: use Debian's Chromium when present; otherwise make sure Playwright's own is installed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { chromium } from "@playwright/test";

if (!fs.existsSync("/usr/bin/chromium") && !fs.existsSync(chromium.executablePath())) {
  console.log("No /usr/bin/chromium; installing Playwright's Chromium once…");
  execFileSync(process.execPath, ["node_modules/@playwright/test/cli.js", "install", "chromium"], { stdio: "inherit" });
}
