import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type ChecklistInput, type ChecklistItem, openChecklistItems } from "./first-run-checklist.ts";

/** How many pictures the gallery holds, published or hidden. */
async function countPictures(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("gallery_images")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The dashboard's open first-run steps, from the settings, the gallery and what the dashboard read already. */
export async function readOpenChecklistItems(
  db: Kysely<Database>,
  input: Omit<ChecklistInput, "pictureCount">,
): Promise<ChecklistItem[]> {
  return openChecklistItems({ ...input, pictureCount: await countPictures(db) });
}
