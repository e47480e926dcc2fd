import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changesIn, openEventStream } from "#tests/support/event-stream.ts";
import { createUser, insertLinkRow } from "#tests/support/factories.ts";
import { nginxConfig, prepareNginxFolder } from "#tests/support/nginx-config.ts";
import { skipUnlessAvailable } from "#tests/support/required-suites.ts";
import {
  freePort,
  noteCookieSecret,
  type RequestOptions,
  request,
  type ServerProcess,
  startServer,
} from "#tests/support/server-process.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-database.ts";

/**
 * The site behind a real nginx, as docs/DEPLOY.md sets it up: nginx terminates TLS (here it only says so with
 * `X-Forwarded-Proto: https`) and appends the client's address to `X-Forwarded-For`; the server trusts that
 * one hop (TRUST_PROXY=1) and knows its public origin (BASE_URL).
 */
const NGINX = "/usr/sbin/nginx";
const PUBLIC_ORIGIN = "https://vitrine.example";
const hasNginx = fs.existsSync(NGINX);
if (!hasNginx) console.warn(`Skipping the reverse proxy tests: ${NGINX} is missing (apt-get install nginx-light).`);

async function startNginx(dir: string, upstreamPort: number): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  // Started as root, nginx's worker runs as nobody: it must be able to enter its temp folders.
  prepareNginxFolder(dir);
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    nginxConfig(dir, {
      workerConnections: 64,
      http: `  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto https;
      proxy_set_header X-Request-Id $request_id;
    }
  }`,
    }),
  );
  const child = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  for (let tries = 0; ; tries++) {
    try {
      await request(`http://127.0.0.1:${port}/healthz`);
      return { child, port };
    } catch (error) {
      if (child.exitCode !== null || tries > 100) {
        child.kill("SIGKILL");
        throw new Error(`nginx did not start: ${stderr}${fs.readFileSync(path.join(dir, "error.log"), "utf8")}`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe.skipIf(skipUnlessAvailable(hasNginx, NGINX))("behind nginx with TRUST_PROXY=1", () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let nginx: { child: ChildProcess; port: number };
  let nginxDir = "";

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer({
      dataDir: database.location.dataDir,
      env: { TRUST_PROXY: "1", BASE_URL: PUBLIC_ORIGIN, AUTH_MAX_FAILED_ATTEMPTS: "2" },
    });
    nginxDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-nginx-"));
    nginx = await startNginx(nginxDir, server.port);
  });

  afterAll(async () => {
    nginx?.child.kill("SIGQUIT");
    await server?.stop();
    await database?.destroy();
    fs.rmSync(nginxDir, { recursive: true, force: true });
  });

  /** A request to nginx, as a browser on the public origin sends it. */
  const viaProxy = (pathname: string, options: RequestOptions = {}) =>
    request(`http://127.0.0.1:${nginx.port}${pathname}`, options);

  const signIn = (email: string, password: string, localAddress: string, headers: Record<string, string> = {}) =>
    viaProxy("/auth", {
      method: "POST",
      localAddress,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: PUBLIC_ORIGIN, ...headers },
      body: new URLSearchParams({ intent: "sign-in", email, password, redirectTo: "/links" }).toString(),
    });

  it("signs in through the proxy with a Secure session cookie and a redirect on the public origin", async () => {
    const user = await createUser(database.db);
    const response = await signIn(user.email, user.password, "127.0.0.10");
    expect(response.status).toBe(302);
    const location = response.headers.location ?? "";
    expect(new URL(location, PUBLIC_ORIGIN).href).toBe(`${PUBLIC_ORIGIN}/links`);
    const session = response.cookies.find((cookie) => /session_token=/.test(cookie)) ?? "";
    noteCookieSecret(session.split(";")[0]?.split("=")[1]);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
  });

  it("sends visitors of the admin area to sign in on the public origin", async () => {
    const response = await viaProxy("/admin");
    expect(response.status).toBe(302);
    expect(new URL(response.headers.location ?? "", PUBLIC_ORIGIN).href).toBe(
      `${PUBLIC_ORIGIN}/auth?redirectTo=%2Fadmin`,
    );
  });

  it("counts failed sign-ins per client address from X-Forwarded-For, which a client cannot forge", async () => {
    const user = await createUser(database.db);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await signIn(user.email, "wrong-password-123", "127.0.0.2")).status).toBe(400);
    }
    expect((await signIn(user.email, "wrong-password-123", "127.0.0.2")).status).toBe(429);
    // Naming another address itself does not help: nginx appends the real one, and that is the one trusted.
    const forged = await signIn(user.email, user.password, "127.0.0.2", { "X-Forwarded-For": "203.0.113.9" });
    expect(forged.status).toBe(429);
    // Another client behind the same proxy is counted on its own.
    expect((await signIn(user.email, "wrong-password-123", "127.0.0.3")).status).toBe(400);
    expect((await signIn(user.email, user.password, "127.0.0.3")).status).toBe(302);
  });

  it("records the client's own address on its session (Account → Sessions), not one it forged", async () => {
    const user = await createUser(database.db);
    const response = await signIn(user.email, user.password, "127.0.0.12", {
      "X-Forwarded-For": "203.0.113.9",
      "X-Vitrine-Client-Address": "198.51.100.4",
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    });
    expect(response.status).toBe(302);
    const session = response.cookies.find((cookie) => /session_token=/.test(cookie)) ?? "";
    noteCookieSecret(session.split(";")[0]?.split("=")[1]);
    const rows = await database.db
      .selectFrom("session")
      .select(["ipAddress", "userAgent"])
      .where("userId", "=", user.id)
      .execute();
    expect(rows).toEqual([
      { ipAddress: "127.0.0.12", userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" },
    ]);
  });

  it("renders absolute URLs (canonical, og:url) on the public origin and logs the proxy's request id", async () => {
    const response = await viaProxy("/faq");
    expect(response.status).toBe(200);
    expect(response.body).toContain(`<link rel="canonical" href="${PUBLIC_ORIGIN}/faq"/>`);
    expect(response.body).toContain(`<meta property="og:url" content="${PUBLIC_ORIGIN}/faq"/>`);
    expect(response.body).not.toContain("http://127.0.0.1");
    // nginx's $request_id reaches the app, which answers and logs with it.
    const id = response.headers["x-request-id"];
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await server.waitForLogLine((line) => line.reqId === id && line.path === "/faq")).toBeDefined();
  });

  it("passes the live stream through unbuffered: a change reaches a stream held through nginx at once", async () => {
    const stream = await openEventStream(`http://127.0.0.1:${nginx.port}/api/events`);
    expect(stream.status).toBe(200);
    await stream.waitFor((message) => message.event === "ready");
    const id = await insertLinkRow(database.db, { title: "Through the proxy", active: true });
    // nginx would hold a buffered answer until its buffer filled; the server's X-Accel-Buffering: no prevents it.
    await stream.waitFor(() => changesIn(stream).some((event) => event.id === id), 3000);
    stream.close();
  });
});
