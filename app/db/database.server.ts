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
  PostgresDialect,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type UnknownRow,
  type ValueNode,
} from "kysely";
import pg from "pg";
import type { Database } from "./schema.ts";

export type DatabaseKind = "sqlite" | "postgres";

export type AppDatabase = {
  db: Kysely<Database>;
  kind: DatabaseKind;
  close: () => Promise<void>;
};

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
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class ImmediateTransactionSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateTransactionSqliteDriver(this.#config);
  }
}

export function databaseKindOf(databaseUrl: string | undefined): DatabaseKind {
  return databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl) ? "postgres" : "sqlite";
}

export function openDatabase(options: { databaseUrl?: string; sqliteFile?: string }): AppDatabase {
  if (databaseKindOf(options.databaseUrl) === "postgres") {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client losing its connection must not crash the process.
    pool.on("error", (error) => console.error("PostgreSQL pool error:", error.message));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: "postgres", close: () => db.destroy() };
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
    dialect: new ImmediateTransactionSqliteDialect({ database: sqlite }),
    plugins: [new SqliteValuesPlugin()],
  });
  return { db, kind: "sqlite", close: () => db.destroy() };
}
