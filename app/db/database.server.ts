import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresAdapter,
  PostgresDialect,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type UnknownRow,
  type ValueNode,
} from "kysely";
import { LRUCache } from "lru-cache";
import pg from "pg";
import { getLogger } from "#app/lib/logger.server.ts";
import { areasOfTable, type ChangeArea } from "./change-areas.ts";
import { ChangeVersions, WriteObserverPlugin } from "./change-versions.server.ts";
import { setPlannerCosts } from "./postgres-session.server.ts";
import type { Database } from "./schema.ts";

export type DatabaseKind = "sqlite" | "postgres";

export type AppDatabase = {
  db: Kysely<Database>;
  kind: DatabaseKind;
  close: () => Promise<void>;
  /**
   * A number that changes whenever what the site shows of `areas` (all of it when left out) may have changed: a
   * write through this process to one of their tables, or a commit by another process (the CLI, a second server:
   * its areas are known on PostgreSQL, from the notification; on SQLite they are not, and every area moves). What
   * is computed from the data (cached pages, settings, gallery counts) is kept for one value and thrown away when
   * it moves. See docs/decisions/001-page-cache.md and 011-live-updates.md.
   */
  changeVersion: (areas?: readonly ChangeArea[]) => number;
  /**
   * Counts a change made outside the query layer's view (the end of a write request, a file-only change) in
   * `areas`; left out, in every area.
   */
  noteChange: (areas?: readonly ChangeArea[]) => void;
  /**
   * Calls `listener` soon after a write may have committed: one through this process, or (PostgreSQL) another
   * process's commit that recorded change events, and the listener's reconnection after the database was away.
   * A hint to read `change_events` now rather than at the next poll; returns the unsubscribe.
   */
  watchCommits: (listener: () => void) => () => void;
};

/** Socket errors and PostgreSQL error codes that say the server is away (down, restarting, unreachable). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown: a fast or immediate stop
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "53300", // too_many_connections
]);
/** What pg says, without a code, about a connection that ended or never came. */
const UNREACHABLE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * Whether an error means the database cannot be reached right now (it is restarting, stopped, or the
 * connection was cut), as opposed to a query or the data being wrong. Such a request is answered 503, not 500.
 * PostgreSQL's class 08 (connection exception) counts too; causes are followed.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (UNREACHABLE_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * Connection settings for every PostgreSQL client: a connection attempt gives up after 5 s (a vanished host
 * otherwise holds a request for minutes), and TCP keep-alive notices a connection cut without a goodbye.
 */
const CONNECTION_OPTIONS = { connectionTimeoutMillis: 5000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 };

/** The channel PostgreSQL's change triggers notify (migration 0003), so every server learns of every commit. */
export const CHANGE_CHANNEL = "vitrine_changes";
/** The channel notified after a commit that recorded change events (migration 0015). */
export const EVENT_CHANNEL = "vitrine_events";

/**
 * Listens for other connections' commits on PostgreSQL. While the listener is not connected, nothing can be
 * known, so every call counts as a change (caches then keep nothing) until it is back. A notification names the
 * table written (migration 0003's trigger), so it moves that table's areas; one without a known table, and the
 * reconnection (whatever happened while away), move every area.
 */
function postgresChangeListener(
  connectionString: string,
  onChange: (areas?: readonly ChangeArea[]) => void,
  onEvents: () => void,
) {
  let client: pg.Client | null = null;
  let connected = false;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let warned = false;
  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString, ...CONNECTION_OPTIONS });
    client = next;
    const down = (error?: Error) => {
      if (client !== next) return;
      connected = false;
      client = null;
      next.end().catch(() => {});
      if (error && !warned && !closed) getLogger().warn(`PostgreSQL change listener lost: ${error.message}`);
      warned = true;
      if (!closed) retry = setTimeout(connect, 1000);
      retry?.unref?.();
    };
    next.on("error", down);
    next.on("end", () => down());
    next.on("notification", (message) =>
      message.channel === EVENT_CHANNEL ? onEvents() : onChange(areasOfTable(message.payload ?? "")),
    );
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}; LISTEN ${EVENT_CHANNEL}`);
      if (client !== next) return;
      connected = true;
      if (warned) getLogger().info("PostgreSQL change listener reconnected.");
      warned = false;
      onChange(); // whatever happened while away
      onEvents();
    } catch (error) {
      down(error instanceof Error ? error : new Error(String(error)));
    }
  };
  let started = false;
  return {
    isConnected() {
      if (!started && !closed) {
        started = true;
        void connect();
      }
      return connected;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      connected = false;
      await current?.end().catch(() => {});
    },
  };
}

function toSqliteValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

class SqliteValueTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const transformed = super.transformValue(node);
    return { ...transformed, value: toSqliteValue(transformed.value) };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    const transformed = super.transformPrimitiveValueList(node);
    return { ...transformed, values: transformed.values.map(toSqliteValue) };
  }
}

/** better-sqlite3 binds neither booleans nor dates; this lets one query layer serve both databases. */
class SqliteValuesPlugin implements KyselyPlugin {
  readonly #transformer = new SqliteValueTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE), waiting for it under busy_timeout.
 * A deferred transaction that reads first and writes later fails at once with "database is locked" when
 * another process (the CLI, the seed script) wrote in between: SQLite cannot upgrade its stale snapshot.
 */
class ImmediateTransactionSqliteDriver extends SqliteDriver {
  readonly #sqlite: SQLite.Database;

  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database) {
    super(config);
    this.#sqlite = sqlite;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  /**
   * SQLite ends the transaction itself on some failures (a full disk, SQLITE_FULL, at the commit): a rollback then
   * fails with "no transaction is active", and that error, not the one that ended the transaction, reached the caller.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

class ImmediateTransactionSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #sqlite: SQLite.Database;

  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database) {
    super(config);
    this.#config = config;
    this.#sqlite = sqlite;
  }

  override createDriver(): Driver {
    return new ImmediateTransactionSqliteDriver(this.#config, this.#sqlite);
  }
}

/** How many prepared statements the SQLite connection keeps: the site's queries, with room for the `in (…)` lengths. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 as Kysely's SQLite driver sees it, but preparing each SQL text once: Kysely's connection calls
 * `prepare` before every query, and compiling the statement was a good part of a page's database time. The
 * least recently used statement is dropped beyond `limit`. A statement still being iterated (a stream) is
 * busy, so the same SQL meanwhile gets a statement of its own.
 */
export function cacheStatements(sqlite: SQLite.Database, limit = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: limit });
  return {
    prepare(text: string) {
      const cached = statements.get(text);
      if (cached) return cached.busy ? sqlite.prepare(text) : cached;
      const statement = sqlite.prepare(text);
      statements.set(text, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/** Each database's change version, found from its Kysely instance (a transaction is not found: it reads fresh). */
const changeVersions = new WeakMap<object, (areas?: readonly ChangeArea[]) => number>();

/**
 * The change version of `areas` (all when left out) of the database behind `db`, or undefined for a transaction
 * or a database opened elsewhere.
 */
export function changeVersionOf(db: object, areas?: readonly ChangeArea[]): number | undefined {
  return changeVersions.get(db)?.(areas);
}

const changeNoters = new WeakMap<object, (areas?: readonly ChangeArea[]) => void>();

/**
 * Counts a change on the database behind `db` (in every area unless `areas` says). Used when a read failed: what
 * is rendered from the fallback must not be kept as if it were the data (a page cache would serve it after the
 * database is back).
 */
export function noteChangeOf(db: object, areas?: readonly ChangeArea[]): void {
  changeNoters.get(db)?.(areas);
}

/** Whether `db` (a database or a transaction) is PostgreSQL: for the few queries each database answers best its own way. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function databaseKindOf(databaseUrl: string | undefined): DatabaseKind {
  return databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl) ? "postgres" : "sqlite";
}

export function openDatabase(options: { databaseUrl?: string; sqliteFile?: string }): AppDatabase {
  const versions = new ChangeVersions();
  const commitWatchers = new Set<() => void>();
  const hintCommit = () => {
    for (const watcher of commitWatchers) watcher();
  };
  const watchCommits = (listener: () => void) => {
    commitWatchers.add(listener);
    return () => {
      commitWatchers.delete(listener);
    };
  };
  const noteChange = (areas?: readonly ChangeArea[]) => {
    versions.move(areas);
    hintCommit();
  };
  const observer = new WriteObserverPlugin(noteChange);
  if (databaseKindOf(options.databaseUrl) === "postgres") {
    const connectionString = options.databaseUrl as string;
    const pool = new pg.Pool({ connectionString, max: 10, ...CONNECTION_OPTIONS });
    // An idle client losing its connection must not crash the process.
    pool.on("error", (error) => getLogger().warn(`PostgreSQL pool error: ${error.message}`));
    // Nor may a client that is checked out: when its connection ends (a restart, a cut), pg fails the query in
    // flight and also emits the error on the client, where the pool listens only while the client is idle; an
    // 'error' event nobody listens to ends the process. The query's caller has the error; the pool drops the
    // broken client when it is released.
    pool.on("connect", (client) => {
      client.on("error", () => {});
      setPlannerCosts(client);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [observer] });
    // Started on first use, so that scripts and tests that never ask keep no extra connection.
    const listener = postgresChangeListener(connectionString, noteChange, hintCommit);
    const changeVersion = (areas?: readonly ChangeArea[]) => {
      if (!listener.isConnected()) versions.move();
      return versions.version(areas);
    };
    changeVersions.set(db, changeVersion);
    changeNoters.set(db, noteChange);
    return {
      db,
      kind: "postgres",
      changeVersion,
      noteChange,
      watchCommits,
      close: async () => {
        await listener.close();
        await db.destroy();
      },
    };
  }
  const file = options.sqliteFile;
  if (!file) throw new Error("A SQLite file path is required when DATABASE_URL is not a PostgreSQL URL");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({
    dialect: new ImmediateTransactionSqliteDialect({ database: cacheStatements(sqlite) }, sqlite),
    plugins: [new SqliteValuesPlugin(), observer],
  });
  // SQLite moves `data_version` when another connection (another process) commits; own writes are counted above.
  let seenDataVersion: unknown = null;
  // Asked on every page load: prepared once.
  const dataVersion = sqlite.prepare("pragma data_version").pluck();
  // Looked at once until the running code is done (the next microtask): a kept page's stamp asks for the versions of
  // several areas in one go, and each look is a read transaction (two file-lock system calls). One look also makes
  // the answers of one go agree with each other.
  let looked = false;
  const lookAgainLater = () => {
    looked = false;
  };
  // Which tables that commit wrote is not known here: every area moves.
  const changeVersion = (areas?: readonly ChangeArea[]) => {
    if (!sqlite.open) versions.move();
    else if (!looked) {
      looked = true;
      queueMicrotask(lookAgainLater);
      const current = dataVersion.get();
      if (current !== seenDataVersion) {
        seenDataVersion = current;
        versions.move();
      }
    }
    return versions.version(areas);
  };
  changeVersions.set(db, changeVersion);
  changeNoters.set(db, noteChange);
  return { db, kind: "sqlite", changeVersion, noteChange, watchCommits, close: () => db.destroy() };
}
