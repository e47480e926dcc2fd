import { openDatabase } from "#app/db/database.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { describe, formatNumber, median, type Row, range, verdictOf } from "./stats.ts";

/*
 * A signed-in member's pages (issue 23): never kept by the page cache, so every one is an uncached render, with
 * the member's menu and session on top. Measured on the page-cached server (a member meets the site as it runs by
 * default), each against the bare React Router app's `/` of the same round: the bare app has that page only.
 */

/** The member's pages of the bench's site (it has pictures, links and an FAQ, no posts: `/blog` is its empty page). */
export const MEMBER_PAGES = ["/", "/home", "/blog"] as const;

/**
 * A member account in no group, made in the server's database, and its session cookie (signed with the server's
 * secret), as the `Cookie` header of its requests.
 */
export async function signInMember(sqliteFile: string, authSecret: string): Promise<string> {
  const database = openDatabase({ sqliteFile });
  try {
    const member = await createUser(database.db, { email: "bench-member@example.test" });
    const cookie = await createSessionCookie(database.db, member.id, authSecret);
    return `${cookie.name}=${cookie.value}`;
  } finally {
    await database.close();
  }
}

/**
 * That each member page answers as the member's own (200 with the account link): a run of error pages or of the
 * visitor's pages would measure something else. Answers the problems found.
 */
export async function checkMemberPages(server: ServerProcess, memberCookie: string): Promise<string[]> {
  const problems: string[] = [];
  for (const page of MEMBER_PAGES) {
    const answer = await request(server.url(page), { headers: { Cookie: memberCookie } });
    if (answer.status !== 200 || !answer.body.includes('href="/account"')) {
      const without = answer.status === 200 ? " without the account link" : "";
      problems.push(`A signed-in member's ${page} answered ${answer.status}${without}`);
    }
  }
  return problems;
}

/** The rows: each page's req/s ÷ the bare app's `/` of the same round, median and spread over the rounds. */
export function memberRows(values: (name: string) => number[], hasWrk: boolean): Row[] {
  return MEMBER_PAGES.map((page) => {
    const figure = `Signed-in member's \`${page}\` (never page-cached), req/s ÷ the bare React Router app's \`/\` (10 connections)`;
    if (!hasWrk) return { figure, measured: "n/a", goal: "≥ 1.0", verdict: "skipped (wrk missing)" };
    const ratio = median(values(`member ${page} c10`)) / median(values("bare / c10"));
    return {
      figure,
      measured: `${formatNumber(ratio)} (rounds ${range(values(`member/bare ${page}`))}); member ${describe(values(`member ${page} c10`), "req/s")}`,
      goal: "≥ 1.0",
      verdict: verdictOf(ratio, (value) => value >= 1),
    };
  });
}
