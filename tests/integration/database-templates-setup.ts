import type { TestProject } from "vitest/node";
import { createDatabaseTemplates } from "../support/database-template.ts";

/** Migrates one database of each kind for the whole run; every test's fresh database is a copy (database-template.ts). */
export default async function setup(project: TestProject) {
  const { templates, remove } = await createDatabaseTemplates();
  project.provide("databaseTemplates", templates);
  return remove;
}
