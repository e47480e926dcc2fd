import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { listInvites } from "#app/domains/invites/invite-admin.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { answerOf, formPost, servicesContext, sessionOf } from "#tests/support/route-services.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { invitesAction } from "./admin.invites.server.ts";

// The invites screen's action called in-process (its HTTP path and mail: tests/integration/admin-*.test.ts).
describe("the invites screen's action", () => {
  const database = useTestDatabase("sqlite", "each");
  const context = (user: Parameters<typeof sessionOf>[0]) => servicesContext({ database }, sessionOf(user));

  it("refuses a signed-in non-admin with 403 and makes no code", async () => {
    const user = await createUser(database.db);
    const before = (await listInvites(database.db)).length;
    const thrown = await invitesAction({
      ...formPost("/admin/invites", { intent: "create", count: "3" }),
      context: context(user),
    }).catch((error: unknown) => error);
    expect(answerOf(thrown).status).toBe(403);
    expect(await listInvites(database.db)).toHaveLength(before);
  });

  it("answers a count out of range with 400, the reason on the field and as the message", async () => {
    const admin = await createUser(database.db, { admin: true });
    const answer = answerOf(
      await invitesAction({ ...formPost("/admin/invites", { intent: "create", count: "0" }), context: context(admin) }),
    );
    expect(answer.status).toBe(400);
    const body = answer.body as { ok: boolean; message: string; fieldErrors: Record<string, string> };
    expect(body.ok).toBe(false);
    expect(body.fieldErrors.count).toMatch(/\d/);
    expect(body.message).toBe(body.fieldErrors.count);
  });

  it("makes the codes asked for and records them in the audit log as the admin", async () => {
    const admin = await createUser(database.db, { admin: true });
    const post = formPost("/admin/invites", { intent: "create", count: "2", note: "For the family" });
    const answer = answerOf(await invitesAction({ ...post, context: context(admin) }));
    expect(answer.status).toBe(200);
    const body = answer.body as { ok: true; codes: string[] };
    expect(body.ok).toBe(true);
    expect(body.codes).toHaveLength(2);
    const { records } = await listAudit(database.db, { action: "invites.create" });
    expect(records[0]).toMatchObject({ actorId: admin.id, actorEmail: admin.email });
  });
});
