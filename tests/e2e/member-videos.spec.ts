import { videosService } from "#app/domains/videos/videos.server.ts";
import { inContext, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { uniqueName } from "./content-helpers.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

/*
 * Issue 21 for videos in a browser: the admin's video editor chooses a group (axe in both themes on the choice);
 * the group's member sees the video with its badge, a visitor and a member outside the group do not.
 */

test("a video for a group is chosen in its editor and shown to that group's members only", async ({
  page,
  browser,
  makeUser,
  signInAs,
  database,
}) => {
  test.slow();
  const group = uniqueName("Cousins");
  const groupId = crypto.randomUUID();
  const title = uniqueName("Harbour video");
  const admin = await makeUser({ admin: true });
  const created = await videosService.create(database.db, admin, {
    title,
    embed_url: "https://vimeo.com/76979871",
    active: "on",
  });
  if (!created.ok) throw new Error("The video was refused");
  await database.db.insertInto("member_groups").values({ id: groupId, name: group, created_at: new Date() }).execute();
  const cousin = await makeUser();
  await database.db.insertInto("user_groups").values({ user_id: cousin.id, group_id: groupId }).execute();
  try {
    await signInAs(page, admin);
    await page.goto("/admin/videos");
    await waitForHydration(page);
    await page.getByRole("button", { name: `Edit “${title}”` }).click();
    await page.getByRole("radio", { name: "Groups" }).check();
    await expect(page.getByRole("checkbox", { name: group })).toBeVisible();
    for (const theme of ["dark", "light"] as const) {
      await setPreferences(page, { theme });
      await expectNoViolations(page, `video editor with its groups (${theme})`);
    }
    await page.getByRole("checkbox", { name: group }).check();
    await page.getByRole("button", { name: "Save who may see it" }).click();
    await expect(toast(page, `Who may see “${title}” was saved.`)).toBeVisible();
    await expect
      .poll(
        async () =>
          (await database.db.selectFrom("videos").select("visibility").where("id", "=", created.id).executeTakeFirst())
            ?.visibility,
      )
      .toBe("groups");

    await inContext(browser, async (member) => {
      await signInAs(member, cousin);
      await member.goto("/videos");
      const card = member.locator("article", { has: member.getByRole("heading", { name: title }) });
      await expect(card.getByText(`For ${group}`)).toBeVisible();
      await expectNoViolations(member, "a group's video for its member");
    });
    const outsider = await makeUser();
    for (const reader of [outsider, null]) {
      await inContext(browser, async (other) => {
        if (reader) await signInAs(other, reader);
        await other.goto("/videos");
        await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
        await expect(other.getByText(title)).toHaveCount(0);
      });
    }
  } finally {
    await database.db.deleteFrom("content_groups").where("item_id", "=", created.id).execute();
    await database.db.deleteFrom("videos").where("id", "=", created.id).execute();
    await database.db.deleteFrom("member_groups").where("id", "=", groupId).execute();
  }
});
