// Development data: `npm run seed` adds an admin and a regular user (printed with their passwords) and, on a
// site without content, sample pictures, links, questions and a video.
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { findUserByEmail } from "#app/domains/users/users.server.ts";
import { parseEnv } from "#app/lib/env.server.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { checkStorage, createStorage } from "#app/runtime/storage-choice.server.ts";
import { createInvite, createUser } from "#tests/support/factories.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";

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

  const hasContent = await database.db.selectFrom("gallery_images").select("id").limit(1).executeTakeFirst();
  if (hasContent) {
    console.log("The gallery has pictures already; no sample content added.");
  } else {
    // Writing needs no signing secret: files are written where the server will serve them from.
    await checkStorage(env);
    const storage = createStorage(env, "seed");
    const added = await addSampleContent(database.db, storage);
    console.log(
      `Sample content: ${added.pictures} pictures, ${added.links} links, ${added.questions} questions, ${added.videos} video.`,
    );
  }
} finally {
  await database.close();
}
