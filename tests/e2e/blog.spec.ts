import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { storeImage } from "#app/domains/media/image-pipeline.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import type { AdminPost, PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { type CreatedUser, createUser } from "#tests/support/factories.ts";
import { storageIn, testPhoto } from "#tests/support/gallery-factories.ts";
import { expectNoViolations } from "./axe.ts";
import { expect, openServerDatabase, removeUsers, setPreferences, test, waitForHydration } from "./fixtures.ts";

// The posts are made once (through the domain, as the admin editor would) and read by every test in order.
test.describe.configure({ mode: "serial" });

function accepted(result: PostWriteResult): AdminPost {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const tag = `e2e-${run}`;
const longBody = [
  "An opening paragraph with a few words in it.",
  "## First part",
  "Some text about the first part.",
  "## Second part",
  "More text, and a list:\n\n- one\n- two",
  "### A detail",
  "The detail itself.",
  "## Last part",
  "The end.",
].join("\n\n");

type Posts = { oldest: AdminPost; middle: AdminPost; newest: AdminPost; draft: AdminPost; fresh: AdminPost };
let posts: Posts | undefined;
let author: CreatedUser | undefined;

/**
 * Three posts of this run's own tag, back-dated to three days in 2001 (so no other spec's post falls between
 * them), a draft with the same tag, and one published now for the blog's first page.
 */
async function makePosts(db: Kysely<Database>, author: CreatedUser, dataDir: string): Promise<Posts> {
  if (posts) return posts;
  const actor = { id: author.id, email: author.email };
  await db.updateTable("user").set({ name: "Ada Author" }).where("id", "=", author.id).execute();
  const publish = async (fields: Record<string, unknown>, at?: string) => {
    const post = accepted(await createPost(db, actor, { tags: tag, ...fields }));
    return accepted(await setPostStatus(db, actor, post.id, { status: "published", publishAt: at }));
  };
  const oldest = await publish({ title: `Oldest ${run}`, excerpt: "The first one." }, "2001-01-01T10:00:00Z");
  const middle = await publish(
    { title: `Middle ${run}`, title_de: `Mitte ${run}`, excerpt: "In between.", excerpt_de: "Dazwischen." },
    "2001-01-02T10:00:00Z",
  );
  // A cover through the real pipeline (every size and format), as the editor's upload makes it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-cover-"));
  const file = path.join(dir, "cover.jpg");
  fs.writeFileSync(file, await testPhoto({ width: 1600, height: 900, label: "Cover" }));
  const coverId = await storeImage(db, file, { storage: storageIn(dataDir) });
  fs.rmSync(dir, { recursive: true, force: true });
  const newest = await publish(
    {
      cover_image_id: coverId,
      cover_alt: "A gradient with the word Cover",
      cover_alt_de: "Ein Farbverlauf mit dem Wort Cover",
      title: `Newest ${run}`,
      title_de: `Neuester ${run}`,
      excerpt: "The last one.",
      excerpt_de: "Der letzte.",
      body: longBody,
      body_de: longBody.replace("First part", "Erster Teil"),
    },
    "2001-01-03T10:00:00Z",
  );
  const draft = accepted(await createPost(db, actor, { title: `Draft ${run}`, tags: tag }));
  const fresh = await publish({ title: `Fresh ${run}`, excerpt: "Just out.", body: "Three words here." });
  posts = { oldest, middle, newest, draft, fresh };
  return posts;
}

test.beforeEach(async ({ database, e2eServer }) => {
  if (!posts) {
    // Not makeUser, which removes its users after each test: the last test signs in as the posts' author.
    author = await createUser(database.db, { admin: true });
    await makePosts(database.db, author, e2eServer.dataDir);
  }
});

test.afterAll(async ({ e2eServer }) => {
  if (!author) return;
  const database = openServerDatabase(e2eServer);
  await removeUsers(database.db, [author.id]);
  await database.close();
});

test("the blog lists published posts with date and reading time, never a draft, and Blog is in the menu", async ({
  page,
}) => {
  const { fresh } = posts as Posts;
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog", exact: true }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog");
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: fresh.title }) });
  await expect(card).toContainText("Just out.");
  await expect(card).toContainText("1 min read");
  await expect(card.locator("time")).toHaveAttribute("datetime", fresh.publishAt ?? "");
  await expect(card.getByRole("link", { name: `#${tag}` })).toBeVisible();
  await expect(page.getByText(`Draft ${run}`)).toHaveCount(0);
});

test("a tag lists its posts newest first, and previous/next lead through them", async ({ page }) => {
  const { oldest, middle, newest, fresh } = posts as Posts;
  await page.goto(`/blog/${newest.slug}`);
  await waitForHydration(page);
  await page
    .getByRole("link", { name: `#${tag}` })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/blog/tag/${tag}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Posts tagged “${tag}”`);
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText([
    fresh.title,
    newest.title,
    middle.title,
    oldest.title,
  ]);

  await page.getByRole("link", { name: middle.title }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(middle.title);
  await expect(page.getByText("By Ada Author")).toBeVisible();
  const more = page.getByRole("navigation", { name: "More posts" });
  await expect(more.getByRole("link", { name: `Older post ${oldest.title}` })).toBeVisible();
  await more.getByRole("link", { name: `Newer post ${newest.title}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(newest.title);
  await expect(page).toHaveURL(new RegExp(`/blog/${newest.slug}$`));
  // Its cover, in the sizes the pipeline made.
  const cover = page.getByRole("img", { name: "A gradient with the word Cover" });
  await expect(cover).toHaveAttribute("width", "1600");
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // A long post shows its contents, each entry leading to its heading.
  const contents = page.getByRole("navigation", { name: "Contents" });
  await expect(contents.getByRole("link")).toHaveText(["First part", "Second part", "A detail", "Last part"]);
  await contents.getByRole("link", { name: "Last part" }).click();
  await expect(page).toHaveURL(/#last-part$/);
  await expect(page.getByRole("heading", { name: "Last part" })).toBeInViewport();
});

test("the German version lives at its own slug, and the English slug leads there in German", async ({ page }) => {
  const { newest, middle } = posts as Posts;
  await page.goto(`/blog/${newest.slug}?lang=de`);
  await expect(page).toHaveURL(new RegExp(`/blog/${newest.slugDe}\\?lang=de$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Neuester ${run}`);
  await expect(page.getByText("3. Januar 2001")).toBeVisible();
  await expect(page.getByText("1 Min. Lesezeit")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Inhalt" }).getByRole("link").first()).toHaveText("Erster Teil");
  await expect(
    page
      .getByRole("navigation", { name: "Weitere Beiträge" })
      .getByRole("link", { name: `Älterer Beitrag Mitte ${run}` }),
  ).toHaveAttribute("href", `/blog/${middle.slugDe}`);
  const alternates = page.locator('link[rel="alternate"][hreflang]');
  await expect(alternates.and(page.locator('[hreflang="en"]'))).toHaveAttribute(
    "href",
    new RegExp(`/blog/${newest.slug}\\?lang=en$`),
  );
  await expect(alternates.and(page.locator('[hreflang="de"]'))).toHaveAttribute(
    "href",
    new RegExp(`/blog/${newest.slugDe}\\?lang=de$`),
  );
});

test("a draft's address is the not-found page", async ({ page }) => {
  const { draft } = posts as Posts;
  const response = await page.goto(`/blog/${draft.slug}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
});

for (const theme of ["light", "dark"] as const) {
  test(`axe finds nothing on the blog, a tag and a post (${theme})`, async ({ page }) => {
    const { newest } = posts as Posts;
    await setPreferences(page, { theme });
    for (const path of ["/blog", `/blog/tag/${tag}`, `/blog/${newest.slug}`, `/blog/${newest.slugDe}?lang=de`]) {
      await page.goto(path);
      await waitForHydration(page);
      await expectNoViolations(page, `${path} (${theme})`);
    }
  });
}

test("the author sets the display name their posts show on the account page", async ({ page, signInAs }) => {
  const { middle } = posts as Posts;
  await signInAs(page, author as CreatedUser);
  await page.goto("/account");
  await waitForHydration(page);
  const section = page.getByRole("region", { name: "Display name" });
  await expect(section.getByLabel("Display name")).toHaveValue("Ada Author");
  await section.getByLabel("Display name").fill("Ada L.");
  await section.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your display name has been saved.").first()).toBeVisible();
  await page.goto(`/blog/${middle.slug}`);
  await expect(page.getByText("By Ada L.")).toBeVisible();
  // Emptied, the part of the e-mail address before the @ stands in.
  await page.goto("/account");
  await waitForHydration(page);
  await section.getByLabel("Display name").fill("");
  await section.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your display name has been saved.").first()).toBeVisible();
  await page.goto(`/blog/${middle.slug}`);
  await expect(page.getByText(`By ${(author as CreatedUser).email.split("@")[0]}`)).toBeVisible();
  await expectNoViolations(page, "post with the e-mail name");
});
