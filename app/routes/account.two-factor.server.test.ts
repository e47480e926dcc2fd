import { describe, expect, it } from "vitest";
import { accountTranslatorFor } from "#app/i18n/account-dictionary.ts";
import { createUser } from "#tests/support/factories.ts";
import { answerOf, formPost, servicesContext, sessionOf } from "#tests/support/route-services.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { twoFactorAction, twoFactorLoader } from "./account.two-factor.server.ts";

// The two-factor page's loader and action called in-process, for what is decided before better-auth is asked
// (turning it on and off with real codes: tests/integration/two-factor.test.ts).
describe("the two-factor page's loader and action", () => {
  const database = useTestDatabase("sqlite", "each");
  const en = accountTranslatorFor("en");

  it("sends a visitor to sign in and back", async () => {
    const { request, url } = formPost("/account/two-factor", {});
    const thrown = await twoFactorLoader({ request, url, context: servicesContext({ database }, null) }).catch(
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/auth?redirectTo=%2Faccount%2Ftwo-factor");
  });

  it("answers a form it cannot read with 400 and the page's message", async () => {
    const user = await createUser(database.db);
    const post = formPost("/account/two-factor", { intent: "enable-everything" });
    const answer = answerOf(
      await twoFactorAction({ ...post, context: servicesContext({ database }, sessionOf(user)) }),
    );
    expect(answer).toEqual({
      status: 400,
      body: { kind: "error", intent: "start", error: en("account.twoFactor.failed") },
    });
  });

  it("refuses to turn off what is not on with 409, before any password is checked", async () => {
    const user = await createUser(database.db);
    const post = formPost("/account/two-factor", { intent: "disable", password: "not checked" });
    // No auth service nor limiter in this runtime: reaching either would fail the test.
    const answer = answerOf(
      await twoFactorAction({ ...post, context: servicesContext({ database }, sessionOf(user)) }),
    );
    expect(answer).toEqual({
      status: 409,
      body: { kind: "error", intent: "disable", error: en("account.twoFactor.notOn") },
    });
    const status = await twoFactorLoader({ ...post, context: servicesContext({ database }, sessionOf(user)) });
    expect(status.status.enabled).toBe(false);
  });
});
