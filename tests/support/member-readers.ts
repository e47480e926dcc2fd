import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { createUser } from "./factories.ts";
import { type HttpResponse, request, type ServerProcess, TEST_AUTH_SECRET } from "./server-process.ts";
import { createSessionCookie } from "./sessions.ts";

/*
 * The readers of issue 21's leak matrices: a visitor, a member in no group, a member of "Friends", a member of
 * "Family" and an admin, each with a session cookie for the real server (signed with TEST_AUTH_SECRET).
 */

export type MemberReader = "visitor" | "member" | "friend" | "family" | "admin";
/** Signed-in readers first: a page kept for one of them would show in the visitors' answers after them. */
export const MEMBER_READERS: MemberReader[] = ["admin", "family", "friend", "member", "visitor"];
/** Who may see an item for members. */
export const MEMBERS_ONLY: MemberReader[] = ["admin", "family", "friend", "member"];
/** Who may see an item for the "Family" group. */
export const FAMILY_ONLY: MemberReader[] = ["admin", "family"];

export type MemberReaders = {
  actor: { id: string; email: string };
  familyGroup: string;
  friendsGroup: string;
  /** The account of the "family" reader. */
  familyUserId: string;
  cookies: Record<MemberReader, string | undefined>;
};

export async function makeMemberReaders(db: Kysely<Database>): Promise<MemberReaders> {
  const admin = await createUser(db, { admin: true });
  const familyGroup = randomUUID();
  const friendsGroup = randomUUID();
  await db
    .insertInto("member_groups")
    .values([
      { id: familyGroup, name: "Family", created_at: new Date() },
      { id: friendsGroup, name: "Friends", created_at: new Date() },
    ])
    .execute();
  const [member, friend, family] = [await createUser(db), await createUser(db), await createUser(db)];
  await db
    .insertInto("user_groups")
    .values([
      { user_id: friend.id, group_id: friendsGroup },
      { user_id: family.id, group_id: familyGroup },
    ])
    .execute();
  const cookieOf = async (id: string) => {
    const cookie = await createSessionCookie(db, id, TEST_AUTH_SECRET);
    return `${cookie.name}=${cookie.value}`;
  };
  return {
    actor: { id: admin.id, email: admin.email },
    familyGroup,
    friendsGroup,
    familyUserId: family.id,
    cookies: {
      visitor: undefined,
      member: await cookieOf(member.id),
      friend: await cookieOf(friend.id),
      family: await cookieOf(family.id),
      admin: await cookieOf(admin.id),
    },
  };
}

/** The address of a stored file: public names at /media/, a restricted item's member folder at /media/members/. */
export function storedFileUrl(key: string): string {
  return key.startsWith("public/")
    ? `/media/${key.slice("public/".length)}`
    : `/media/members/${key.split("/").slice(2).join("/")}`;
}

/**
 * Requests as each reader (their session cookie), and the answer once `ready` holds: a write by the test's process
 * reaches the server's caches (the page cache, the menu) a moment later. Given getters: the matrices set the server
 * and the cookies up in `beforeAll`.
 */
export function readerRequests(server: () => ServerProcess, cookies: () => Record<MemberReader, string | undefined>) {
  const get = (path: string, reader: MemberReader) => {
    const cookie = cookies()[reader];
    return request(server().url(path), { headers: cookie ? { Cookie: cookie } : {} });
  };
  const settled = async (path: string, reader: MemberReader, ready: (response: HttpResponse) => boolean) => {
    const until = Date.now() + 5000;
    let response = await get(path, reader);
    while (!ready(response) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      response = await get(path, reader);
    }
    return response;
  };
  return { get, settled };
}
