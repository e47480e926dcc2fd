import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { claimJob, enqueueJob, failJob, type JobRow } from "#app/domains/jobs/job-queue.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { outcomeOf, routeArgs, statusOf, useRouteRuntime } from "#tests/support/route-context.ts";
import { answerOf } from "#tests/support/route-services.ts";
import { databaseKinds } from "#tests/support/test-database.ts";
import { action, loader } from "./admin.jobs.ts";

// The dashboard's "Try again" and "Dismiss" (POST /admin/jobs) called in-process on a runtime over a test database;
// the guard of every admin route: tests/integration/route-admin-guard.test.ts; in the browser: tests/e2e/admin-jobs.spec.ts.
describe.each(databaseKinds)("the failed jobs' action (%s)", (kind) => {
  const current = useRouteRuntime(kind);

  async function signedInAdmin() {
    const admin = await createUser(current().database.db, { admin: true });
    return { id: admin.id, email: admin.email, isAdmin: true };
  }

  /** A picture's sizes that failed their only try, for good; the only job (the runtime is shared by the tests). */
  async function failedJob(): Promise<string> {
    const { db } = current().database;
    await db.deleteFrom("jobs").execute();
    const id = (await enqueueJob(db, { kind: "image.finish", maxAttempts: 1 })) as string;
    const job = (await claimJob(db, kind, {
      lane: "default",
      kinds: ["image.finish"],
      worker: "w",
      leaseMs: 30_000,
    })) as JobRow;
    await failJob(db, job, "w", new Error("Input buffer contains unsupported image format"));
    return id;
  }

  const rowOf = (id: string) =>
    current().database.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  const auditCount = async () => (await listAudit(current().database.db, { action: "jobs." })).total;

  async function post(visitor: Awaited<ReturnType<typeof signedInAdmin>>, fields: Record<string, string>, lang = "en") {
    const args = routeArgs(current().runtime, visitor, "/admin/jobs", {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Cookie: `lang=${lang}` },
    });
    return answerOf(await outcomeOf(() => action(args)));
  }

  it("refuses a form without a known answer or a job with 400 and a clear message, and changes nothing", async () => {
    const admin = await signedInAdmin();
    const id = await failedJob();
    const before = await rowOf(id);
    const audited = await auditCount();

    const badForms: Record<string, string>[] = [
      { intent: "restart", id },
      { intent: "retry" },
      { intent: "dismiss", id: "   " },
      // PostgreSQL refuses a NUL in a text value: found by the fuzz test as a 500.
      { intent: "retry", id: "a\u0000b" },
      { intent: "retry", id: `${id}\u0000` },
      { id },
      {},
    ];
    for (const fields of badForms) {
      const answer = await post(admin, fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.body, JSON.stringify(fields)).toEqual({
        ok: false,
        message: "The request names no listed work or no known answer (Try again or Dismiss).",
      });
    }
    expect((await post(admin, { intent: "restart", id }, "de")).body).toMatchObject({
      message:
        "Die Anfrage nennt keine aufgeführte Arbeit oder keine bekannte Antwort (Erneut versuchen oder Verwerfen).",
    });

    expect(await rowOf(id)).toEqual(before);
    expect(await auditCount()).toBe(audited);
  });

  it("tries a failed job again: back in the queue, recorded as the admin", async () => {
    const admin = await signedInAdmin();
    const id = await failedJob();

    const answer = await post(admin, { intent: "retry", id });

    expect(answer).toEqual({ status: 200, body: { ok: true, message: "“Making a picture's sizes” is queued again." } });
    expect(await rowOf(id)).toMatchObject({ state: "queued", attempts: 0 });
    const { records } = await listAudit(current().database.db, { action: "jobs." });
    expect(records[0]).toMatchObject({ action: "jobs.retry", actorId: admin.id, target: "image.finish" });
  });

  it("dismisses a failed job in the admin's language, and answers 409 when it is no longer failing", async () => {
    const admin = await signedInAdmin();
    const id = await failedJob();

    const answer = await post(admin, { intent: "dismiss", id }, "de");

    expect(answer).toEqual({
      status: 200,
      body: { ok: true, message: "Der Hinweis auf „Bildgrößen erstellen“ ist verworfen." },
    });
    expect(await rowOf(id)).toBeUndefined();
    const audited = await auditCount();
    for (const intent of ["retry", "dismiss"]) {
      const again = await post(admin, { intent, id });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        ok: false,
        message:
          "This work is no longer failing: it was tried again or dismissed meanwhile. The list shows what is failing now.",
      });
    }
    expect(await auditCount()).toBe(audited);
  });

  it("answers an admin's GET with 405 (it only takes the dashboard's posts)", async () => {
    const admin = await signedInAdmin();
    const outcome = await outcomeOf(() => loader(routeArgs(current().runtime, admin, "/admin/jobs")));
    expect(statusOf(outcome)).toBe(405);
  });
});
