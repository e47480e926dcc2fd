import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server.ts";

function envError(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return error as EnvError;
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(source)}`);
}

describe("environment", () => {
  it("has working defaults when nothing is set", () => {
    expect(parseEnv({})).toEqual({
      nodeEnv: "production",
      port: 3000,
      host: undefined,
      dataDir: path.resolve("./data"),
      databaseUrl: undefined,
      baseUrl: "http://localhost:3000",
      authSecret: undefined,
      authMaxFailedAttempts: 10,
      trustProxy: 0,
      pageCache: true,
      logLevel: "info",
      uploadMaxBytes: 25 * 1024 * 1024,
      videoUploadMaxBytes: 1024 * 1024 * 1024,
      live: { maxStreams: 2000, maxStreamsPerClient: 16 },
      jobs: { leaseMs: 30_000 },
      backup: { dir: undefined, keep: 14, intervalMs: 24 * 3_600_000 },
      mail: { smtpUrl: undefined, from: "vitrine@localhost", fromIsDefault: true },
      storage: { kind: "local", root: path.join(path.resolve("./data"), "storage") },
    });
  });

  it("takes SMTP_URL and MAIL_FROM, and defaults the sender to the host of BASE_URL", () => {
    expect(
      parseEnv({ SMTP_URL: "smtps://me:secret@mail.example.com:465", MAIL_FROM: "site@example.com" }).mail,
    ).toEqual({ smtpUrl: "smtps://me:secret@mail.example.com:465", from: "site@example.com", fromIsDefault: false });
    expect(parseEnv({ SMTP_URL: "smtp://mail.example.com", BASE_URL: "https://www.example.org/" }).mail).toEqual({
      smtpUrl: "smtp://mail.example.com",
      from: "vitrine@www.example.org",
      fromIsDefault: true,
    });
  });

  it("refuses a bad SMTP_URL without showing its password", () => {
    const wrongScheme = envError({ SMTP_URL: "https://me:hunter2hunter2@mail.example.com" });
    expect(wrongScheme.message).toMatch(/^Invalid environment variable SMTP_URL: must be an smtp:\/\/ or smtps:\/\//);
    expect(wrongScheme.message).toContain("me:***@mail.example.com");
    expect(wrongScheme.message).not.toContain("hunter2hunter2");
    const noUrl = envError({ SMTP_URL: "me:hunter2hunter2 at mail.example.com" });
    expect(noUrl.message).toMatch(/SMTP_URL/);
    expect(noUrl.message).not.toContain("hunter2hunter2");
    expect(noUrl.message).not.toContain("\n");
  });

  it("refuses a MAIL_FROM that is not a plain address", () => {
    expect(envError({ MAIL_FROM: "Vitrine <site@example.com>" }).message).toMatch(
      /^Invalid environment variable MAIL_FROM: must be a plain e-mail address/,
    );
  });

  it("schedules backups only with BACKUP_DIR, and refuses a bad count or interval", () => {
    expect(parseEnv({ BACKUP_DIR: "backups", BACKUP_KEEP: "7", BACKUP_INTERVAL_HOURS: "0.5" }).backup).toEqual({
      dir: path.resolve("backups"),
      keep: 7,
      intervalMs: 30 * 60_000,
    });
    expect(envError({ BACKUP_KEEP: "0" }).message).toMatch(/^Invalid environment variable BACKUP_KEEP: /);
    expect(envError({ BACKUP_KEEP: "many" }).message).toMatch(/BACKUP_KEEP/);
    expect(envError({ BACKUP_INTERVAL_HOURS: "0" }).message).toMatch(/BACKUP_INTERVAL_HOURS/);
  });

  it("takes a job lease of 2 s to an hour from JOB_LEASE_SECONDS, and refuses anything else", () => {
    expect(parseEnv({ JOB_LEASE_SECONDS: "3" }).jobs).toEqual({ leaseMs: 3_000 });
    expect(envError({ JOB_LEASE_SECONDS: "1" }).message).toMatch(
      /^Invalid environment variable JOB_LEASE_SECONDS: must be a number of seconds from 2 to 3600/,
    );
    expect(envError({ JOB_LEASE_SECONDS: "soon" }).message).toMatch(/JOB_LEASE_SECONDS/);
  });

  it("keeps pages for visitors unless PAGE_CACHE=off, and never in development", () => {
    expect(parseEnv({ PAGE_CACHE: "off" }).pageCache).toBe(false);
    expect(parseEnv({ PAGE_CACHE: "on", NODE_ENV: "development" }).pageCache).toBe(false);
    expect(() => parseEnv({ PAGE_CACHE: "maybe" })).toThrow(/PAGE_CACHE: must be "on" or "off"/);
  });

  it("takes LOG_LEVEL as one of pino's levels", () => {
    expect(parseEnv({ LOG_LEVEL: "debug" }).logLevel).toBe("debug");
    expect(parseEnv({ LOG_LEVEL: "" }).logLevel).toBe("info");
    expect(() => parseEnv({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL: must be one of fatal, error/);
  });

  it("takes upload limits in megabytes and refuses nonsense", () => {
    expect(parseEnv({ UPLOAD_MAX_MB: "5" }).uploadMaxBytes).toBe(5 * 1024 * 1024);
    expect(parseEnv({ VIDEO_UPLOAD_MAX_MB: "10" }).videoUploadMaxBytes).toBe(10 * 1024 * 1024);
    expect(() => parseEnv({ UPLOAD_MAX_MB: "0" })).toThrow(/UPLOAD_MAX_MB/);
    expect(() => parseEnv({ VIDEO_UPLOAD_MAX_MB: "lots" })).toThrow(/VIDEO_UPLOAD_MAX_MB/);
  });

  it("reads TRUST_PROXY as a number of proxies, and refuses 'trust everything'", () => {
    expect(parseEnv({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(parseEnv({ TRUST_PROXY: "false" }).trustProxy).toBe(0);
    expect(envError({ TRUST_PROXY: "true" }).message).toMatch(/^Invalid environment variable TRUST_PROXY: /);
    expect(envError({ TRUST_PROXY: "yes please" }).message).toMatch(/^Invalid environment variable TRUST_PROXY: /);
  });

  it("treats blank values as unset rather than as port 0", () => {
    expect(parseEnv({ PORT: " " }).port).toBe(3000);
  });

  it("treats empty values as unset", () => {
    const env = parseEnv({ PORT: "", DATABASE_URL: "", BASE_URL: "", DATA_DIR: "", HOST: "" });
    expect(env.port).toBe(3000);
    expect(env.databaseUrl).toBeUndefined();
    expect(env.dataDir).toBe(path.resolve("./data"));
  });

  it("reads every variable", () => {
    const env = parseEnv({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATA_DIR: "/srv/vitrine",
      DATABASE_URL: "postgres://vitrine@db.internal:5432/vitrine",
      BASE_URL: "https://jo.example/some/path/",
      AUTH_SECRET: "x".repeat(32),
      AUTH_MAX_FAILED_ATTEMPTS: "3",
    });
    expect(env).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      dataDir: "/srv/vitrine",
      databaseUrl: "postgres://vitrine@db.internal:5432/vitrine",
      baseUrl: "https://jo.example",
      authMaxFailedAttempts: 3,
    });
  });

  it("derives the public origin from the port when BASE_URL is unset", () => {
    expect(parseEnv({ PORT: "4321" }).baseUrl).toBe("http://localhost:4321");
  });

  it("accepts postgresql:// as well as postgres://", () => {
    expect(parseEnv({ DATABASE_URL: "postgresql://u@h/db" }).databaseUrl).toBe("postgresql://u@h/db");
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["PORT", "80.5"],
    ["DATABASE_URL", "mysql://root@localhost/site"],
    ["DATABASE_URL", "./data/site.sqlite"],
    ["BASE_URL", "not a url"],
    ["BASE_URL", "ftp://jo.example"],
    ["BASE_URL", "jo.example"],
    ["AUTH_SECRET", "too-short"],
    ["AUTH_MAX_FAILED_ATTEMPTS", "0"],
  ])("refuses %s=%j with one line that names the variable", (name, value) => {
    const error = envError({ [name]: value });
    expect(error.message).toMatch(new RegExp(`\\b${name}\\b`));
    expect(error.message).not.toContain("\n");
    expect(error.message.length).toBeLessThan(200);
    if (name !== "AUTH_SECRET") expect(error.message).toContain(value);
  });

  it("does not print the secret when AUTH_SECRET is refused", () => {
    const error = envError({ AUTH_SECRET: "my-short-secret" });
    expect(error.message).toContain("AUTH_SECRET");
    expect(error.message).not.toContain("my-short-secret");
  });

  it("does not print the password of a refused database URL", () => {
    const error = envError({ DATABASE_URL: "mysql://root:hunter2@db.internal/site" });
    expect(error.message).toContain("DATABASE_URL");
    expect(error.message).toContain("mysql://root:***@db.internal/site");
    expect(error.message).not.toContain("hunter2");
  });

  it("names the variable that is wrong, not one that is right", () => {
    const error = envError({ PORT: "3000", BASE_URL: "nope" });
    expect(error.message).toContain("BASE_URL");
    expect(error.message).not.toContain("PORT");
  });

  describe("STORAGE_URL", () => {
    const keys = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI-secret-example" };
    const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI-secret-example" };

    it("keeps files under DATA_DIR/storage when unset or empty", () => {
      expect(parseEnv({ DATA_DIR: "/srv/site" }).storage).toEqual({ kind: "local", root: "/srv/site/storage" });
      expect(parseEnv({ DATA_DIR: "/srv/site", STORAGE_URL: " ", ...keys }).storage.kind).toBe("local");
    });

    it("reads a bucket, a folder in it, the endpoint, region and path style", () => {
      expect(parseEnv({ STORAGE_URL: "s3://my-bucket", ...keys }).storage).toEqual({
        kind: "s3",
        location: {
          bucket: "my-bucket",
          prefix: "",
          region: "us-east-1",
          endpoint: undefined,
          forcePathStyle: false,
          credentials,
        },
      });
      expect(
        parseEnv({
          STORAGE_URL:
            "s3://media.example.com/sites/vitrine/?endpoint=http://127.0.0.1:9000/&region=eu-central-1&forcePathStyle=true",
          ...keys,
        }).storage,
      ).toEqual({
        kind: "s3",
        location: {
          bucket: "media.example.com",
          prefix: "sites/vitrine",
          region: "eu-central-1",
          endpoint: "http://127.0.0.1:9000",
          forcePathStyle: true,
          credentials,
        },
      });
      expect(parseEnv({ STORAGE_URL: "s3://b12?region=auto&forcePathStyle=false", ...keys }).storage).toMatchObject({
        location: { bucket: "b12", region: "auto", forcePathStyle: false },
      });
    });

    it("refuses a bad value with one line naming the variable and what is wrong", () => {
      const refused: [string, RegExp][] = [
        ["https://my-bucket.s3.amazonaws.com", /must be an s3:\/\/ URL such as s3:\/\/my-bucket/],
        ["my-bucket", /must be an s3:\/\/ URL/],
        ["s3://", /must name the bucket/],
        ["s3://My_Bucket", /must name the bucket/],
        ["s3://ab", /must name the bucket/],
        ["s3://bucket:9000", /must name the bucket/],
        ["s3://bucket/a/.hidden", /has a folder that is not plain names/],
        ["s3://bucket/a b", /has a folder that is not plain names/],
        ["s3://bucket?endpoint=localhost:9000", /has an endpoint that is not an http:\/\/ or https:\/\/ URL/],
        ["s3://bucket?endpoint=ftp://host", /has an endpoint/],
        ["s3://bucket?region=EU%20central", /has a region/],
        ["s3://bucket?forcePathStyle=yes", /has forcePathStyle other than "true" or "false"/],
        [
          "s3://bucket?pathStyle=true",
          /has an unknown parameter "pathStyle" \(known: endpoint, region, forcePathStyle\)/,
        ],
      ];
      for (const [value, message] of refused) {
        const error = envError({ STORAGE_URL: value, ...keys });
        expect(error.message, value).toMatch(/^Invalid environment variable STORAGE_URL: /);
        expect(error.message, value).toMatch(message);
        expect(error.message, value).not.toContain("\n");
      }
    });

    it("never shows a key pair written into the URL", () => {
      const inUser = envError({ STORAGE_URL: "s3://AKIDEXAMPLE:hunter2secret@my-bucket/site", ...keys });
      expect(inUser.message).toMatch(/must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
      expect(inUser.message).toContain('(got "s3://my-bucket/site")');
      expect(inUser.message).not.toMatch(/hunter2secret|AKIDEXAMPLE:/);
      const inQuery = envError({ STORAGE_URL: "s3://my-bucket?secretAccessKey=hunter2secret", ...keys });
      expect(inQuery.message).toMatch(/unknown parameter "secretAccessKey"/);
      expect(inQuery.message).not.toContain("hunter2secret");
    });

    it("needs both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY with a bucket, and shows neither", () => {
      expect(envError({ STORAGE_URL: "s3://my-bucket" }).message).toBe(
        "Invalid environment variable AWS_ACCESS_KEY_ID: must be set when STORAGE_URL names a bucket (with AWS_SECRET_ACCESS_KEY)",
      );
      const noSecret = envError({ STORAGE_URL: "s3://my-bucket", AWS_ACCESS_KEY_ID: "AKIDEXAMPLE" });
      expect(noSecret.message).toBe(
        "Invalid environment variable AWS_SECRET_ACCESS_KEY: must be set when STORAGE_URL names a bucket (with AWS_ACCESS_KEY_ID)",
      );
      expect(
        envError({ STORAGE_URL: "s3://my-bucket", AWS_ACCESS_KEY_ID: " ", AWS_SECRET_ACCESS_KEY: "x" }).message,
      ).toMatch(/^Invalid environment variable AWS_ACCESS_KEY_ID: must be set/);
      // Without a bucket the key pair is not needed (and not an error when present).
      expect(parseEnv({ ...keys }).storage.kind).toBe("local");
    });
  });
});
