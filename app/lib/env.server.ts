import path from "node:path";
import { z } from "zod";

const port = z.coerce
  .number({ message: "must be a whole number from 0 to 65535" })
  .int("must be a whole number from 0 to 65535")
  .min(0, "must be a whole number from 0 to 65535")
  .max(65535, "must be a whole number from 0 to 65535");

/** pino's levels, quietest last. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const emptyAsUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * An SMTP URL as it may be shown (logs, the admin screens): scheme, user and host, the password as `***`.
 * Anything else (a path, or a value that is no URL with a host) could hold a password written without the URL's
 * escapes, and is left out.
 */
export function maskSmtpUrl(value: string): string {
  try {
    const url = new URL(value);
    if (!url.host) return "(not a URL)";
    const user = url.username ? `${url.username}${url.password ? ":***" : ""}@` : "";
    return `${url.protocol}//${user}${url.host}`;
  } catch {
    return "(not a URL)";
  }
}

/** Where STORAGE_URL puts the files: a bucket (and a folder in it) on AWS S3 or an S3-compatible server. */
export type S3StorageSettings = {
  bucket: string;
  /** A folder inside the bucket, without slashes at either end; "" for the bucket's top. */
  prefix: string;
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
};

const STORAGE_URL_EXAMPLE = "s3://my-bucket/site?region=eu-central-1";
const STORAGE_URL_PARAMETERS = ["endpoint", "region", "forcePathStyle"];
// S3's own rules for a bucket name (the strictest of the S3-compatible servers').
const BUCKET_NAME = /^(?!\d+\.\d+\.\d+\.\d+$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
// The same plain segments as storage keys (app/domains/media/storage.server.ts), so a prefix needs no escaping.
const PREFIX_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** STORAGE_URL read: the settings, or why the value is refused (a message without the value). */
export function parseStorageUrl(value: string): S3StorageSettings | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an s3:// URL such as ${STORAGE_URL_EXAMPLE}, or unset to keep files in DATA_DIR/storage`;
  }
  if (url.protocol !== "s3:") {
    return `must be an s3:// URL such as ${STORAGE_URL_EXAMPLE}, or unset to keep files in DATA_DIR/storage`;
  }
  if (url.username || url.password) {
    return "must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead";
  }
  if (url.port || !BUCKET_NAME.test(url.hostname)) {
    return `must name the bucket right after s3:// (3 to 63 lowercase letters, digits, dots and hyphens), as in ${STORAGE_URL_EXAMPLE}`;
  }
  const prefix = url.pathname.replace(/^\/+|\/+$/g, "");
  if (prefix !== "" && !prefix.split("/").every((segment) => PREFIX_SEGMENT.test(segment) && segment !== "..")) {
    return "has a folder that is not plain names (letters, digits, dots, hyphens and underscores, separated by /)";
  }
  const unknown = [...url.searchParams.keys()].find((name) => !STORAGE_URL_PARAMETERS.includes(name));
  if (unknown !== undefined)
    return `has an unknown parameter "${unknown}" (known: ${STORAGE_URL_PARAMETERS.join(", ")})`;
  const region = url.searchParams.get("region") ?? "us-east-1";
  if (!/^[a-z0-9-]{1,40}$/.test(region)) return "has a region that is no region name (such as eu-central-1)";
  const forcePathStyle = url.searchParams.get("forcePathStyle") ?? "false";
  if (forcePathStyle !== "true" && forcePathStyle !== "false") return 'has forcePathStyle other than "true" or "false"';
  const endpoint = url.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(endpoint);
    } catch {
      // Refused below.
    }
    if (!parsed || !["http:", "https:"].includes(parsed.protocol) || parsed.username || parsed.password) {
      return "has an endpoint that is not an http:// or https:// URL without credentials (such as https://s3.example.com)";
    }
  }
  return {
    bucket: url.hostname,
    prefix,
    region,
    endpoint: endpoint?.replace(/\/+$/, ""),
    forcePathStyle: forcePathStyle === "true",
  };
}

/** A cap on live streams: a whole number from 1 to 100,000. */
function streamCap(fallback: number) {
  const message = "must be a whole number from 1 to 100000";
  return z.preprocess(
    emptyAsUndefined,
    z.coerce.number({ message }).int(message).min(1, message).max(100_000, message).default(fallback),
  );
}

const envSchema = z.object({
  NODE_ENV: z.preprocess(emptyAsUndefined, z.enum(["development", "production", "test"]).default("production")),
  PORT: z.preprocess(emptyAsUndefined, port.default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().trim().min(1).default("./data")),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((value) => /^postgres(ql)?:\/\/.+/.test(value), {
        message: "must be a postgres:// URL, or unset to use SQLite in DATA_DIR",
      })
      .optional(),
  ),
  BASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(
        (value) => {
          try {
            return ["http:", "https:"].includes(new URL(value).protocol);
          } catch {
            return false;
          }
        },
        { message: "must be an http:// or https:// URL such as https://example.com" },
      )
      .optional(),
  ),
  AUTH_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, "must be at least 32 characters long").optional()),
  TRUST_PROXY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      // A hop count, never "trust everything": otherwise a client could name its own address in X-Forwarded-For.
      .regex(/^(false|\d{1,2})$/, "must be the number of reverse proxies in front of the server (0 or false for none)")
      .default("false"),
  ),
  UPLOAD_MAX_MB: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1, "must be a whole number of megabytes, at least 1").max(1024).default(25),
  ),
  VIDEO_UPLOAD_MAX_MB: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1, "must be a whole number of megabytes, at least 1").max(16384).default(1024),
  ),
  PAGE_CACHE: z.preprocess(emptyAsUndefined, z.enum(["on", "off"], { message: 'must be "on" or "off"' }).default("on")),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z
      .enum(LOG_LEVELS, {
        message: "must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .default("info"),
  ),
  AUTH_MAX_FAILED_ATTEMPTS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1, "must be a whole number of at least 1").default(10),
  ),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(isSmtpUrl, {
        message: "must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465",
      })
      .optional(),
  ),
  MAIL_FROM: z.preprocess(
    emptyAsUndefined,
    z
      .email({
        message: "must be a plain e-mail address such as vitrine@example.com (the site name is the sender's name)",
      })
      .optional(),
  ),
  LIVE_MAX_STREAMS: streamCap(2000),
  LIVE_MAX_STREAMS_PER_CLIENT: streamCap(16),
  STORAGE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .transform((value, context) => {
        const settings = parseStorageUrl(value.trim());
        if (typeof settings !== "string") return settings;
        context.addIssue({ code: "custom", message: settings });
        return z.NEVER;
      })
      .optional(),
  ),
  AWS_ACCESS_KEY_ID: z.preprocess(emptyAsUndefined, z.string().trim().optional()),
  AWS_SECRET_ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().trim().optional()),
  BACKUP_DIR: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
  BACKUP_KEEP: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ message: "must be a whole number from 1 to 1000" })
      .int("must be a whole number from 1 to 1000")
      .min(1, "must be a whole number from 1 to 1000")
      .max(1000, "must be a whole number from 1 to 1000")
      .default(14),
  ),
  JOB_LEASE_SECONDS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ message: "must be a number of seconds from 2 to 3600" })
      .min(2, "must be a number of seconds from 2 to 3600")
      .max(3600, "must be a number of seconds from 2 to 3600")
      .default(30),
  ),
  BACKUP_INTERVAL_HOURS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ message: "must be a number of hours from 0.1 to 8760" })
      .min(0.1, "must be a number of hours from 0.1 to 8760")
      .max(8760, "must be a number of hours from 0.1 to 8760")
      .default(24),
  ),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  baseUrl: string;
  authSecret: string | undefined;
  authMaxFailedAttempts: number;
  /** Largest image upload, in bytes. */
  uploadMaxBytes: number;
  /** Largest video upload, in bytes. */
  videoUploadMaxBytes: number;
  /** How many reverse proxies' X-Forwarded-For/-Proto entries to trust (Express's "trust proxy" hop count). */
  trustProxy: number;
  /** Whether anonymous visitors' pages are kept rendered (off in development, where code changes under it). */
  pageCache: boolean;
  /**
   * Background jobs: how long a process holds a job it stopped renewing (it died) before another takes it over
   * (JOB_LEASE_SECONDS, 30 by default; a running job renews every third of it).
   */
  jobs: { leaseMs: number };
  /** Scheduled backups: where they go (unset: none are taken), how many are kept, how often. */
  backup: { dir: string | undefined; keep: number; intervalMs: number };
  /**
   * Outgoing mail: through `smtpUrl` (credentials in it; show it only through `maskSmtpUrl`), or, when unset, into
   * the outbox under DATA_DIR. `from` is the sender's address (the site name from settings is the sender's name).
   */
  mail: { smtpUrl: string | undefined; from: string; fromIsDefault: boolean };
  /** Live streams (GET /api/events): at most this many open in the process, and per client address. */
  live: { maxStreams: number; maxStreamsPerClient: number };
  /**
   * Where uploaded and generated files live: the local disk under DATA_DIR/storage, or a bucket (STORAGE_URL) with
   * the key pair of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (never logged).
   */
  storage:
    | { kind: "local"; root: string }
    | {
        kind: "s3";
        location: S3StorageSettings & { credentials: { accessKeyId: string; secretAccessKey: string } };
      };
  /** How much the server logs (pino's levels; `info` logs one line per request). */
  logLevel: (typeof LOG_LEVELS)[number];
};

export class EnvError extends Error {
  override name = "EnvError";
}

/** The refused value for the message; secrets and passwords in URLs stay out of the logs. */
function shown(name: string, raw: string | undefined): string {
  if (raw === undefined || name === "AUTH_SECRET" || name.startsWith("AWS_")) return "";
  if (name === "STORAGE_URL") {
    // Scheme, bucket and folder only: a refused value may carry a key pair in its user part or its parameters.
    const match = /^([a-z0-9+.-]+:\/\/)(?:[^@/?#]*@)?([^/?#]*)([^?#]*)/i.exec(raw.trim());
    return match ? ` (got "${match[1]}${match[2]}${match[3]}")` : "";
  }
  if (name === "SMTP_URL") {
    const masked = maskSmtpUrl(raw);
    return masked.startsWith("(") ? "" : ` (got "${masked}")`;
  }
  return ` (got "${raw.replace(/(\/\/[^/:@]*:)[^@/]*@/, "$1***@")}")`;
}

/** Validates the environment once at start; the first problem becomes a one-line message naming the variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    throw new EnvError(
      `Invalid environment variable ${name}: ${issue?.message ?? "invalid value"}${shown(name, source[name])}`,
    );
  }
  const value = result.data;
  if (value.STORAGE_URL) {
    for (const name of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"] as const) {
      if (!value[name]) {
        throw new EnvError(
          `Invalid environment variable ${name}: must be set when STORAGE_URL names a bucket (with ${name === "AWS_ACCESS_KEY_ID" ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID"})`,
        );
      }
    }
  }
  const dataDir = path.resolve(value.DATA_DIR);
  const baseUrl = new URL(value.BASE_URL ?? `http://localhost:${value.PORT}`).origin;
  return {
    nodeEnv: value.NODE_ENV,
    port: value.PORT,
    host: value.HOST,
    dataDir,
    databaseUrl: value.DATABASE_URL,
    baseUrl,
    authSecret: value.AUTH_SECRET,
    authMaxFailedAttempts: value.AUTH_MAX_FAILED_ATTEMPTS,
    trustProxy: value.TRUST_PROXY === "false" ? 0 : Number(value.TRUST_PROXY),
    pageCache: value.PAGE_CACHE === "on" && value.NODE_ENV !== "development",
    logLevel: value.LOG_LEVEL,
    storage: value.STORAGE_URL
      ? {
          kind: "s3",
          location: {
            ...value.STORAGE_URL,
            credentials: {
              accessKeyId: value.AWS_ACCESS_KEY_ID ?? "",
              secretAccessKey: value.AWS_SECRET_ACCESS_KEY ?? "",
            },
          },
        }
      : { kind: "local", root: path.join(dataDir, "storage") },
    uploadMaxBytes: value.UPLOAD_MAX_MB * 1024 * 1024,
    videoUploadMaxBytes: value.VIDEO_UPLOAD_MAX_MB * 1024 * 1024,
    mail: {
      smtpUrl: value.SMTP_URL,
      from: value.MAIL_FROM ?? defaultMailFrom(baseUrl),
      fromIsDefault: value.MAIL_FROM === undefined,
    },
    live: { maxStreams: value.LIVE_MAX_STREAMS, maxStreamsPerClient: value.LIVE_MAX_STREAMS_PER_CLIENT },
    jobs: { leaseMs: Math.round(value.JOB_LEASE_SECONDS * 1000) },
    backup: {
      dir: value.BACKUP_DIR === undefined ? undefined : path.resolve(value.BACKUP_DIR),
      keep: value.BACKUP_KEEP,
      intervalMs: Math.round(value.BACKUP_INTERVAL_HOURS * 3_600_000),
    },
  };
}

/** MAIL_FROM when unset: `vitrine@` the host of BASE_URL (a mail server may want an address of its own domain). */
function defaultMailFrom(baseUrl: string): string {
  return `vitrine@${new URL(baseUrl).hostname}`;
}
