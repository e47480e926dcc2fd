import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { deleteGalleryEntry } from "#app/domains/gallery/gallery-admin.server.ts";
import { strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { createGalleryPicture, factoryActor, storageIn, testPhoto } from "#tests/support/gallery-factories.ts";
import { inContext, joinByMailedInvite, openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { E2E_DATA_DIR } from "./e2e-env.ts";
import { expect, removeUsers, setPreferences, test, waitForHydration } from "./fixtures.ts";

/*
 * Albums (issue 21) in a browser: an admin makes an album for a group from pictures already in the gallery and new
 * uploads and shares it by a link with a password; a stranger opens it with the password; a person the admin invites
 * into the group by e-mail signs up and finds it in the menu, on /albums and in its own page with the lightbox; a
 * visitor and a member outside the group find nothing. Nothing here is for everyone, so visitors' pages stay as other specs expect.
 */

test("an album for a group shows its pictures to the group's members and to nobody else", async ({
  page,
  browser,
  makeUser,
  signInAs,
  database,
}) => {
  test.setTimeout(240_000);
  const id = Date.now().toString(36);
  const group = `Family ${id}`;
  const title = `Cousins ${id}`;
  const slug = `cousins-${id}`;
  const storage = storageIn(E2E_DATA_DIR);
  const pictures: string[] = [];
  const groupId = crypto.randomUUID();
  const email = uniqueEmail("cousin");
  const password = strongPassword();
  try {
    await database.db
      .insertInto("member_groups")
      .values({ id: groupId, name: group, created_at: new Date() })
      .execute();
    // Two pictures already in the gallery, for the group alone.
    for (const [index, name] of [`Lakeside ${id}`, `Orchard ${id}`].entries()) {
      const picture = await createGalleryPicture(database.db, storage, {
        title: name,
        published: true,
        hue: 30 + index * 120,
        width: 900,
        height: 600,
      });
      pictures.push(picture);
      const access = await setPictureAccess(database.db, storage, factoryActor, picture, {
        visibility: "groups",
        group_ids: groupId,
      });
      expect(access.ok).toBe(true);
    }

    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/albums");
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByRole("button", { name: "Create album" }).click();
    await expect(page).toHaveURL(/\/admin\/albums\/[0-9a-f-]{36}$/);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

    await page.getByRole("radio", { name: /^Groups/ }).check();
    await page.getByRole("checkbox", { name: group }).check();
    await page.getByRole("button", { name: "Save album" }).click();
    await expect(toast(page, `Album “${title}” saved.`)).toBeVisible();

    const add = page.getByRole("region", { name: "Add pictures from the gallery" });
    for (const name of [`Lakeside ${id}`, `Orchard ${id}`]) await add.getByRole("checkbox", { name }).check();
    await add.getByRole("button", { name: "Add chosen pictures (2)" }).click();
    await expect(toast(page, "Pictures added: 2.")).toBeVisible();
    const inAlbum = page.getByRole("list", { name: "The album's pictures, in order" });
    await expect(inAlbum.getByRole("listitem")).toHaveCount(2);

    // A new upload, published at once: into this album it takes the album's readers first.
    const uploadSection = page.getByRole("region", { name: "Upload into this album" });
    await uploadSection.getByLabel("Publish at once").check();
    const data = await testPhoto({ width: 800, height: 600, hue: 280, label: "new" });
    await uploadSection
      .getByLabel("choose files")
      .setInputFiles([{ name: `meadow-${id}.jpg`, mimeType: "image/jpeg", buffer: data }]);
    await expect(uploadSection.locator('[data-state="done"]')).toHaveCount(1, { timeout: 45_000 });
    await expect(inAlbum.getByRole("listitem")).toHaveCount(3);
    const uploaded = await database.db
      .selectFrom("album_pictures as ap")
      .innerJoin("albums as a", "a.id", "ap.album_id")
      .innerJoin("gallery_images as g", "g.id", "ap.picture_id")
      .select(["g.id", "g.visibility", "g.published"])
      .where("a.slug", "=", slug)
      .where("g.title", "like", "Meadow%")
      .executeTakeFirstOrThrow();
    pictures.push(uploaded.id);
    expect(uploaded.visibility).toBe("groups");
    expect(Boolean(uploaded.published)).toBe(true);

    // A share link with a password shows the album, its pictures' files too, to a stranger without an account.
    const shares = page.getByRole("region", { name: "Share links" });
    await shares.getByLabel("Password").fill("lighthouse");
    await shares.getByRole("button", { name: "Make a share link" }).click();
    const newLink = shares.getByLabel("The new link");
    await expect(newLink).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/);
    const link = await newLink.inputValue();
    await inContext(browser, async (stranger) => {
      await stranger.goto(link);
      await expect(stranger.getByRole("heading", { level: 1, name: "This link asks for a password" })).toBeVisible();
      await stranger.getByLabel("Password", { exact: true }).fill("lighthouse");
      await stranger.getByRole("button", { name: "Open" }).click();
      await expect(stranger.getByRole("heading", { level: 1, name: title })).toBeVisible();
      const picture = stranger.getByRole("img", { name: `Orchard ${id}` });
      await picture.scrollIntoViewIfNeeded();
      await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await expect(stranger.getByRole("link", { name: "All albums" })).toHaveCount(0);
      await expectNoViolations(stranger, "a shared album");
    });

    for (const theme of ["dark", "light"] as const) {
      await setPreferences(page, { theme });
      await page.reload();
      await expectNoViolations(page, `the album's editor (${theme})`);
    }
    await page.goto("/admin/albums");
    await expect(page.getByRole("link", { name: title })).toBeVisible();
    await expectNoViolations(page, "the albums screen");

    // A person invited into the group by e-mail signs up and finds the album.
    const person = await joinByMailedInvite(page, browser, database, { email, password, group });
    try {
      const member = person.page;
      await member.goto("/");
      await member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Albums" }).click();
      await expect(member).toHaveURL("/albums");
      const card = member.getByRole("listitem").filter({ hasText: title });
      await expect(card.getByText(`For ${group}`)).toBeVisible();
      await expect(card.getByText("Pictures: 3")).toBeVisible();
      for (const theme of ["dark", "light"] as const) {
        await setPreferences(member, { theme });
        await member.reload();
        await expectNoViolations(member, `/albums for a member (${theme})`);
      }
      await card.getByRole("link", { name: title }).click();
      await expect(member.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await waitForHydration(member);
      await member.getByRole("link", { name: `Orchard ${id}` }).click();
      const dialog = member.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await expect(member).toHaveURL(new RegExp(`/albums/${slug}\\?image=${pictures[1]}$`));
      await expectNoViolations(member, "an album's lightbox");
      await member.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      // The lightbox's own navigation back to the album is done before the page is reloaded (a reload begun while
      // it was under way was aborted by it).
      await expect(member).toHaveURL(new RegExp(`/albums/${slug}$`));
      for (const theme of ["dark", "light"] as const) {
        await setPreferences(member, { theme });
        await member.reload();
        await expectNoViolations(member, `an album for its member (${theme})`);
      }
    } finally {
      await person.close();
    }

    // A visitor and a member outside the group: no album, no menu entry, the address as a missing one.
    await inContext(browser, async (visitor) => {
      expect((await visitor.goto(`/albums/${slug}`))?.status()).toBe(404);
      await visitor.goto("/albums");
      await expect(visitor.getByText(title)).toHaveCount(0);
    });
    const outsider = await makeUser();
    await inContext(browser, async (other) => {
      await signInAs(other, outsider);
      expect((await other.goto(`/albums/${slug}`))?.status()).toBe(404);
      await other.goto("/albums");
      await expect(other.getByText(title)).toHaveCount(0);
      await expect(other.getByText(`Orchard ${id}`)).toHaveCount(0);
    });
  } finally {
    const album = await database.db.selectFrom("albums").select("id").where("slug", "=", slug).executeTakeFirst();
    if (album) {
      await database.db.deleteFrom("content_groups").where("item_id", "=", album.id).execute();
      await database.db.deleteFrom("share_links").where("item_id", "=", album.id).execute();
      await database.db.deleteFrom("albums").where("id", "=", album.id).execute();
    }
    for (const picture of pictures) await deleteGalleryEntry(database.db, factoryActor, picture, storage);
    const joined = await database.db.selectFrom("user").select("id").where("email", "=", email).execute();
    await removeUsers(
      database.db,
      joined.map((row) => row.id),
    );
    await database.db.deleteFrom("invite_codes").where("sent_to", "=", email).execute();
    await database.db.deleteFrom("member_groups").where("id", "=", groupId).execute();
  }
});
