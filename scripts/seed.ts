// Development data: `npm run seed` adds an admin and a regular user (printed with their passwords).
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { findUserByEmail } from "#app/domains/users/users.server.ts";
import { parseEnv } from "#app/lib/env.server.ts";
import { sqliteFileIn } from "#app/lib/runtime.server.ts";
import { createInvite, createUser } from "#tests/support/factories.ts";

const env = parseEnv();
const database = openDatabase({ databaseUrl: env.databaseUrl, sqliteFile: sqliteFileIn(env.dataDir) });
try {
  await migrateToLatest(database.db, database.kind);
  await insertMissingDefaults(database.db);
  for (const [email, admin] of [
    ["admin@example.com", true],
    ["reader@example.com", false],
  ] as const) {
    if (await findUserByEmail(database.db, email)) {
      console.log(`${email} exists already`);
      continue;
    }
    const user = await createUser(database.db, { email, admin });
    console.log(`${admin ? "Admin" : "User"}: ${user.email} / ${user.password}`);
  }
  console.log(`A spare invite code: ${await createInvite(database.db)}`);
} finally {
  await database.close();
}
