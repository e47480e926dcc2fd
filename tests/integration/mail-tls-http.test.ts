import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startServerOnFreshDatabase } from "#tests/support/admin-server.ts";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { createUser } from "#tests/support/factories.ts";
import { skipUnlessAvailable } from "#tests/support/required-suites.ts";
import { postForm } from "#tests/support/server-process.ts";
import { startSmtpServer, type TlsIdentity } from "#tests/support/smtp-server.ts";

// Servers start in a few seconds each on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

/**
 * Mail over TLS, as a mail provider offers it: STARTTLS on an `smtp://` URL, and TLS from the first byte on an
 * `smtps://` one, through the app's mail service in a real server. The mail server's certificate is self-signed
 * and made here; the site trusts it the way an owner would make it trust a private CA: Node's
 * NODE_EXTRA_CA_CERTS in the server's environment (the app has no TLS option of its own). One database kind is
 * enough: the mail path does not depend on it.
 */
const OPENSSL = "/usr/bin/openssl";

function selfSignedCertificate(dir: string): TlsIdentity & { file: string } {
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    OPENSSL,
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "ignore" },
  );
  return { key: fs.readFileSync(keyFile, "utf8"), cert: fs.readFileSync(certFile, "utf8"), file: certFile };
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe.skipIf(skipUnlessAvailable(fs.existsSync(OPENSSL), OPENSSL))("mail over TLS", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-smtp-tls-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const identity = selfSignedCertificate(dir);

  async function sendResetMail(implicit: boolean, env: Record<string, string>) {
    const smtp = await startSmtpServer({ tls: { ...identity, implicit } });
    cleanup.push(() => smtp.close());
    const { server, database } = await startServerOnFreshDatabase("sqlite", {
      SMTP_URL: smtp.url,
      MAIL_FROM: "site@example.test",
      ...env,
    });
    cleanup.push(async () => {
      await server.stop();
      await database.destroy();
    });
    const user = await createUser(database.db);
    const asked = await postForm(server, "/auth/forgot", { email: user.email });
    expect(asked.status).toBe(200);
    return { smtp, server, user };
  }

  it.each([
    ["STARTTLS on an smtp:// URL", false],
    ["TLS from the first byte on an smtps:// URL", true],
  ])("delivers through %s, trusting the certificate named by NODE_EXTRA_CA_CERTS", async (_name, implicit) => {
    const { smtp, user } = await sendResetMail(implicit, { NODE_EXTRA_CA_CERTS: identity.file });
    expect(smtp.url.startsWith(implicit ? "smtps://" : "smtp://")).toBe(true);
    const mail = await smtp.waitForMail((received) => received.to.includes(user.email));
    expect(mail.secure).toBe(true);
    expect(mail.subject).toBe("Reset your password");
  });

  it("refuses to deliver to a mail server whose certificate it does not trust, and says why", async () => {
    const refused = expectErrorLog('"msg":"Mail could not be delivered"');
    const { smtp, server, user } = await sendResetMail(false, {});
    const line = await server.waitForLogLine(
      (entry) => entry.msg === "Mail could not be delivered" && entry.to === user.email,
      15_000,
    );
    expect(String(line?.reason)).toMatch(/self[- ]signed certificate/i);
    expect(refused.lines).toHaveLength(1);
    expect(smtp.mails).toEqual([]);
  });
});
