import { randomBytes, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { createInviteCodes } from "#app/domains/invites/invites.server.ts";
import { grantAdmin, signUpWithInvite } from "#app/domains/users/users.server.ts";
import { noteSecret } from "./secret-ledger.ts";

/** Test data, shared by the tests and `npm run seed`. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}@example.test`;
}

export function strongPassword(): string {
  const password = `Vitrine-${randomBytes(9).toString("base64url")}`;
  noteSecret(password);
  return password;
}

export type CreatedUser = { id: string; email: string; password: string; isAdmin: boolean };

/**
 * Creates a user through the real invite flow, so the rows are exactly what sign-up writes;
 * an admin is then granted the role as the CLI does (admin-granting codes only work for the first admin).
 */
export async function createUser(
  db: Kysely<Database>,
  options: { email?: string; password?: string; admin?: boolean } = {},
): Promise<CreatedUser> {
  const email = options.email ?? uniqueEmail(options.admin ? "admin" : "user");
  const password = options.password ?? strongPassword();
  noteSecret(password);
  const [inviteCode] = await createInviteCodes(db);
  noteSecret(inviteCode);
  if (!inviteCode) throw new Error("No invite code was created");
  const account = await signUpWithInvite(db, { email, password, inviteCode });
  if (options.admin) await grantAdmin(db, account.email);
  return { id: account.userId, email: account.email, password, isAdmin: options.admin === true };
}

export async function createInvite(db: Kysely<Database>, options: { admin?: boolean } = {}): Promise<string> {
  const [code] = await createInviteCodes(db, { grantsRole: options.admin ? "admin" : null });
  if (!code) throw new Error("No invite code was created");
  noteSecret(code);
  return code;
}

/**
 * A link row written straight into the database, as another process (the CLI, a second server) writes one: for the
 * tests of what the server learns from the table alone. Returns its id.
 */
export async function insertLinkRow(
  db: Kysely<Database>,
  options: { title: string; active: boolean },
): Promise<string> {
  const id = randomUUID();
  const at = new Date();
  await db
    .insertInto("links")
    .values({
      id,
      url: "https://example.com/",
      icon: "globe",
      title: options.title,
      title_de: "",
      active: options.active,
      sort_order: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** A FAQ entry row written straight into the database (see insertLinkRow). Returns its id. */
export async function insertFaqRow(db: Kysely<Database>, options: { question: string; active: boolean }) {
  const id = randomUUID();
  const at = new Date();
  await db
    .insertInto("faq_entries")
    .values({
      id,
      question: options.question,
      question_de: "",
      answer: "An answer.",
      answer_de: "",
      active: options.active,
      sort_order: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}
