import { randomBytes, randomUUID } from "node:crypto";
import { makeSignature } from "better-auth/crypto";
import type { Kysely } from "kysely";
import { SESSION_COOKIE_PREFIX } from "#app/auth/auth.server.ts";
import type { Database } from "#app/db/schema.ts";
import { noteSecret } from "./secret-ledger.ts";

export const SESSION_COOKIE_NAME = `${SESSION_COOKIE_PREFIX}.session_token`;

/**
 * Writes a session row directly and returns the signed cookie better-auth expects,
 * so a test can be signed in without going through the sign-in form.
 */
export async function createSessionCookie(
  db: Kysely<Database>,
  userId: string,
  secret: string,
): Promise<{ name: string; value: string }> {
  const token = randomBytes(24).toString("base64url");
  const now = new Date();
  await db
    .insertInto("session")
    .values({
      id: randomUUID(),
      token,
      userId,
      expiresAt: new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000),
      ipAddress: null,
      userAgent: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  const signature = await makeSignature(token, secret);
  noteSecret(token);
  noteSecret(signature);
  return { name: SESSION_COOKIE_NAME, value: encodeURIComponent(`${token}.${signature}`) };
}
