import type { Kysely } from "kysely";
import { type MigrationProvider, Migrator } from "kysely/migration";
import type { DatabaseKind } from "./database.server.ts";
import { migration0015 } from "./migrations/migration-0015.server.ts";
import { migration0016 } from "./migrations/migration-0016.server.ts";
import { migration0017 } from "./migrations/migration-0017.server.ts";
import { migration0018 } from "./migrations/migration-0018.server.ts";
import { migration0019 } from "./migrations/migration-0019.server.ts";
import { migration0020 } from "./migrations/migration-0020.server.ts";
import { migration0021 } from "./migrations/migration-0021.server.ts";
import { migration0022 } from "./migrations/migration-0022.server.ts";
import { migration0023 } from "./migrations/migration-0023.server.ts";
import { migration0024 } from "./migrations/migration-0024.server.ts";
import { migration0025 } from "./migrations/migration-0025.server.ts";
import { migration0026 } from "./migrations/migration-0026.server.ts";
import { migration0027 } from "./migrations/migration-0027.server.ts";
import { migration0028 } from "./migrations/migration-0028.server.ts";
import { migration0029 } from "./migrations/migration-0029.server.ts";
import { migration0030 } from "./migrations/migration-0030.server.ts";
import { migration0031 } from "./migrations/migration-0031.server.ts";
import { migration0032 } from "./migrations/migration-0032.server.ts";
import type { MigrationSet } from "./migrations/migration-support.server.ts";
import { migrations0001To0002 } from "./migrations/migrations-0001-0002.server.ts";
import { migrations0003To0012 } from "./migrations/migrations-0003-0012.server.ts";
import { migrations0013To0014 } from "./migrations/migrations-0013-0014.server.ts";

export type { MigrationSet };

import type { Database } from "./schema.ts";

/**
 * Migrations live in code and run at every start; each runs once, in order.
 * Never edit a migration that has shipped: add a new one.
 */
export const siteMigrations: MigrationSet = (kind) => ({
  ...migrations0001To0002(kind),
  ...migrations0003To0012(kind),
  ...migrations0013To0014(kind),
  ...migration0015(kind),
  ...migration0016(kind),
  ...migration0017(kind),
  ...migration0018(kind),
  ...migration0019(kind),
  ...migration0020(kind),
  ...migration0021(kind),
  ...migration0022(kind),
  ...migration0023(kind),
  ...migration0024(kind),
  ...migration0025(kind),
  ...migration0026(kind),
  ...migration0027(kind),
  ...migration0028(kind),
  ...migration0029(kind),
  ...migration0030(kind),
  ...migration0031(kind),
  ...migration0032(kind),
});

class InlineMigrationProvider implements MigrationProvider {
  private readonly kind: DatabaseKind;
  private readonly migrations: MigrationSet;
  constructor(kind: DatabaseKind, migrations: MigrationSet) {
    this.kind = kind;
    this.migrations = migrations;
  }
  async getMigrations() {
    return this.migrations(this.kind);
  }
}

function migratorFor(db: Kysely<Database>, kind: DatabaseKind, migrations: MigrationSet): Migrator {
  return new Migrator({ db, provider: new InlineMigrationProvider(kind, migrations) });
}

/**
 * Applies every migration not applied yet. `migrations` is the site's own list; tests pass a longer one to
 * act out an upgrade.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  kind: DatabaseKind,
  migrations: MigrationSet = siteMigrations,
): Promise<string[]> {
  const { error, results } = await migratorFor(db, kind, migrations).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Applies the migrations up to and including `name` (a restore builds the schema its backup was made with). */
export async function migrateUpTo(
  db: Kysely<Database>,
  kind: DatabaseKind,
  name: string,
  migrations: MigrationSet = siteMigrations,
): Promise<void> {
  const { error } = await migratorFor(db, kind, migrations).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Which of the known migrations are applied to this database and which are still to run. */
export async function migrationState(
  db: Kysely<Database>,
  kind: DatabaseKind,
  migrations: MigrationSet = siteMigrations,
): Promise<{ applied: string[]; pending: string[] }> {
  const all = await migratorFor(db, kind, migrations).getMigrations();
  return {
    applied: all.filter((m) => m.executedAt !== undefined).map((m) => m.name),
    pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name),
  };
}
