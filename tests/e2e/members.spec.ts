import { strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { inContext, joinByMailedInvite, openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { expect, removeUsers, setPreferences, test, waitForHydration } from "./fixtures.ts";

/*
 * Issue 21 in a browser: an admin names a group, writes a post for it, invites someone into it by e-mail; that person
 * signs up and reads the post with its badge, while a visitor and a member outside the group find nothing.
 */

test("a post for a group reaches the person invited into it, and nobody else", async ({
  page,
  browser,
  makeUser,
  signInAs,
  database,
}) => {
  test.setTimeout(180_000);
  const id = Date.now().toString(36);
  const group = `Family ${id}`;
  const title = `Picnic plans ${id}`;
  const slug = `picnic-plans-${id}`;
  const email = uniqueEmail("cousin");
  const password = strongPassword();
  try {
    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/groups");
    await page.getByLabel("Name", { exact: true }).fill(group);
    await page.getByRole("button", { name: "Create group" }).click();
    await expect(toast(page, `Group “${group}” created.`)).toBeVisible();

    // The editor's choice of readers, in both themes, before anything is typed (a reload keeps nothing).
    await page.goto("/admin/posts/new");
    for (const theme of ["dark", "light"] as const) {
      await setPreferences(page, { theme });
      await page.reload();
      await waitForHydration(page);
      await page.getByRole("radio", { name: /^Groups/ }).check();
      await expect(page.getByRole("checkbox", { name: group })).toBeVisible();
      await expectNoViolations(page, `post editor with its groups (${theme})`);
    }
    await page.getByRole("tabpanel", { name: "English" }).getByLabel("Title").fill(title);
    await page.getByRole("radio", { name: /^Groups/ }).check();
    await page.getByRole("checkbox", { name: group }).check();
    await page.getByRole("button", { name: "Publish now" }).click();
    // The editor of the new post: "/admin/posts/new" would match a looser pattern before the redirect lands.
    await expect(page).toHaveURL(/\/admin\/posts\/[0-9a-f-]{36}\?done=publish$/);
    await expect
      .poll(
        async () =>
          (await database.db.selectFrom("posts").select("status").where("slug", "=", slug).executeTakeFirst())?.status,
      )
      .toBe("published");

    // A share link with a password, for someone without an account.
    await waitForHydration(page);
    const shares = page.getByRole("region", { name: "Share links" });
    await shares.getByLabel("Password").fill("lighthouse");
    await shares.getByRole("button", { name: "Make a share link" }).click();
    const newLink = shares.getByLabel("The new link");
    await expect(newLink).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/);
    const link = await newLink.inputValue();
    await expect(shares.getByRole("cell", { name: "works", exact: true })).toHaveCount(1);
    await expectNoViolations(page, "post editor's share links");
    await inContext(browser, async (stranger) => {
      await stranger.goto(link);
      await expect(stranger.getByRole("heading", { level: 1, name: "This link asks for a password" })).toBeVisible();
      for (const theme of ["dark", "light"] as const) {
        await setPreferences(stranger, { theme });
        await stranger.reload();
        await expectNoViolations(stranger, `a share link's password (${theme})`);
      }
      await stranger.getByLabel("Password", { exact: true }).fill("harbour");
      await stranger.getByRole("button", { name: "Open" }).click();
      await expect(stranger.getByRole("alert")).toHaveText("That password is not right.");
      await stranger.getByLabel("Password", { exact: true }).fill("lighthouse");
      await stranger.getByRole("button", { name: "Open" }).click();
      await expect(stranger.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expectNoViolations(stranger, "a shared post");
    });

    // The invite by e-mail carries the group.
    const person = await joinByMailedInvite(page, browser, database, { email, password, group });
    await person.page.goto("/blog");
    const card = person.page.getByRole("article").filter({ hasText: title });
    await expect(card).toBeVisible();
    await expect(card.getByText(`For ${group}`)).toBeVisible();
    await person.page.goto(`/blog/${slug}`);
    await expect(person.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    for (const theme of ["dark", "light"] as const) {
      await setPreferences(person.page, { theme });
      await person.page.reload();
      await expectNoViolations(person.page, `a group's post for its member (${theme})`);
    }
    await person.close();

    await inContext(browser, async (visitor) => {
      expect((await visitor.goto(`/blog/${slug}`))?.status()).toBe(404);
      await visitor.goto("/blog");
      await expect(visitor.getByText(title)).toHaveCount(0);
    });
    const outsider = await makeUser();
    await inContext(browser, async (other) => {
      await signInAs(other, outsider);
      expect((await other.goto(`/blog/${slug}`))?.status()).toBe(404);
      await other.goto("/search?q=picnic");
      await expect(other.getByText(title)).toHaveCount(0);
    });
  } finally {
    const joined = await database.db.selectFrom("user").select("id").where("email", "=", email).execute();
    await removeUsers(
      database.db,
      joined.map((row) => row.id),
    );
    const post = await database.db.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
    if (post) {
      await database.db.deleteFrom("post_tags").where("post_id", "=", post.id).execute();
      await database.db.deleteFrom("post_slugs").where("post_id", "=", post.id).execute();
      await database.db.deleteFrom("content_groups").where("item_id", "=", post.id).execute();
      await database.db.deleteFrom("share_links").where("item_id", "=", post.id).execute();
      await database.db.deleteFrom("posts").where("id", "=", post.id).execute();
    }
    await database.db.deleteFrom("invite_codes").where("sent_to", "=", email).execute();
    await database.db.deleteFrom("member_groups").where("name", "=", group).execute();
  }
});
