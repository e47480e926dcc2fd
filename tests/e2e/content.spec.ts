import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import { openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { addInAdmin, expectInPageOrder, hideInAdmin, recordWebm, uniqueName } from "./content-helpers.ts";
import { E2E_BASE_URL, expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

// One admin edits what the public pages show; the steps of a test depend on each other's order.
test.describe.configure({ mode: "serial" });

// First in this serial file, and only here: the other tests fill these tables in the server's one database.
test("with nothing added, the links, FAQ and video pages say so, in English and German", async ({ page, database }) => {
  for (const table of ["links", "faq_entries", "videos"] as const) await database.db.deleteFrom(table).execute();
  const emptyStates = [
    { path: "/links", en: "No links yet. Check back soon.", de: "Noch keine Links. Schauen Sie bald wieder vorbei." },
    {
      path: "/faq",
      en: "No questions answered yet. Check back soon.",
      de: "Noch keine Fragen beantwortet. Schauen Sie bald wieder vorbei.",
    },
    {
      path: "/videos",
      en: "No videos yet. Check back soon.",
      de: "Noch keine Videos. Schauen Sie bald wieder vorbei.",
    },
  ];
  for (const { path, en, de } of emptyStates) {
    await page.goto(path);
    await expect(page.getByRole("main").getByText(en)).toBeVisible();
    await page.goto(`${path}?lang=de`);
    await expect(page.getByRole("main").getByText(de)).toBeVisible();
    await page.goto(`${path}?lang=en`);
  }
});

test("links added in the admin screen appear in order, move by keyboard and disappear when hidden", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const first = uniqueName("First link");
  const second = uniqueName("Second link");
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/links");
  await addInAdmin(
    page,
    "Add a link",
    { "Title (English)": first, "Address (URL)": "https://example.com/first", Icon: "github" },
    first,
  );
  await addInAdmin(
    page,
    "Add a link",
    { "Title (English)": second, "Title (German)": `${second} DE`, "Address (URL)": "https://example.com/second" },
    second,
  );

  await page.goto("/links");
  await expectInPageOrder(page, [first, second]);
  const link = page.getByRole("link", { name: new RegExp(first) });
  await expect(link).toHaveAttribute("href", "https://example.com/first");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");

  // Move the second link up with the keyboard.
  await page.goto("/admin/links");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Move “${second}” up` }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Order saved.")).toBeVisible();
  await page.goto("/links");
  await expectInPageOrder(page, [second, first]);

  // And back with the mouse: the first link's handle dragged onto the second link's row.
  await page.goto("/admin/links");
  await waitForHydration(page);
  const list = page.getByRole("main");
  await list
    .getByRole("img", { name: `Drag to reorder “${first}”` })
    .dragTo(list.locator("li").filter({ has: page.getByRole("img", { name: `Drag to reorder “${second}”` }) }));
  await expect(page.getByText("Order saved.")).toBeVisible();
  await page.goto("/links");
  await expectInPageOrder(page, [first, second]);

  // Hide the first one.
  await hideInAdmin(page, "/admin/links", first);
  await page.goto("/links");
  await expect(page.getByText(second, { exact: true })).toBeVisible();
  await expect(page.getByText(first)).toHaveCount(0);

  // Delete the second one, after confirming.
  await page.goto("/admin/links");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Delete “${second}”` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Delete “${second}”?` });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("list", { name: "Links in display order" }).getByText(second)).toBeVisible();
  await page.getByRole("button", { name: `Delete “${second}”` }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText(`“${second}” was deleted.`)).toBeVisible();
  await expect(page.getByRole("list", { name: "Links in display order" }).getByText(second)).toHaveCount(0);
  await page.goto("/links");
  await expect(page.getByText(second)).toHaveCount(0);
});

test("FAQ entries added in the admin screen appear in order, open by keyboard and disappear when hidden", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const first = uniqueName("First question");
  const second = uniqueName("Second question");
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/faq");
  await addInAdmin(
    page,
    "Add a question",
    { "Question (English)": first, "Answer (English)": "The **first** answer." },
    first,
  );
  await addInAdmin(
    page,
    "Add a question",
    { "Question (English)": second, "Answer (English)": "The second answer." },
    second,
  );

  await page.goto("/faq");
  await expectInPageOrder(page, [first, second]);

  // The accordion opens from the keyboard.
  const answer = page.getByText("The first answer.");
  await expect(answer).toBeHidden();
  const summary = page.locator("summary", { hasText: first });
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect(answer).toBeVisible();
  await expect(page.locator("strong", { hasText: "first" })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(answer).toBeHidden();

  await hideInAdmin(page, "/admin/faq", first);
  await page.goto("/faq");
  await expect(page.getByText(second)).toBeVisible();
  await expect(page.getByText(first)).toHaveCount(0);
});

test("a YouTube video contacts no other host until play is pressed, then loads the privacy-enhanced player", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const title = uniqueName("Mountain video");
  const vimeoTitle = uniqueName("Lake video");
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/videos");
  await addInAdmin(
    page,
    "Add a YouTube or Vimeo video",
    { "Title (English)": title, "YouTube or Vimeo address": "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
    title,
  );
  await addInAdmin(
    page,
    "Add a YouTube or Vimeo video",
    { "Title (English)": vimeoTitle, "YouTube or Vimeo address": "https://vimeo.com/76979871" },
    vimeoTitle,
  );

  const foreign: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== E2E_BASE_URL) foreign.push(request.url());
  });
  // No internet here: answer the players' requests locally so the test sees them without waiting on a network.
  await page.route(/^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<p>player</p>" }),
  );

  await page.goto("/videos");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  await expectInPageOrder(page, [title, vimeoTitle]);
  await expect(page.getByText("Pressing play loads the video from YouTube").first()).toBeVisible();
  await expect(page.locator("iframe")).toHaveCount(0);
  expect(foreign).toEqual([]);

  await page.getByRole("button", { name: `Play “${title}”` }).click();
  const frame = page.locator(`iframe[title="${title} (video on YouTube)"]`);
  await expect(frame).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1");
  await expect.poll(() => foreign).toEqual(["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1"]);

  await page.getByRole("button", { name: `Play “${vimeoTitle}”` }).click();
  await expect(page.locator(`iframe[title="${vimeoTitle} (video on Vimeo)"]`)).toHaveAttribute(
    "src",
    "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1",
  );

  // Hidden in the admin screen, gone from the page.
  await hideInAdmin(page, "/admin/videos", title);
  await page.goto("/videos");
  await expect(page.getByRole("heading", { name: vimeoTitle })).toBeVisible();
  await expect(page.getByText(title)).toHaveCount(0);
});

test("without JavaScript the FAQ still opens and a video offers a plain link to its page on the host", async ({
  browser,
  database,
  makeUser,
}) => {
  const admin = await makeUser({ admin: true });
  const question = uniqueName("No-script question");
  const title = uniqueName("No-script video");
  await faqService.create(database.db, admin, { question, answer: "Answered without scripts.", active: "on" });
  await videosService.create(database.db, admin, { title, embed_url: "https://vimeo.com/76979871", active: "on" });
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto("/faq");
    await page.locator("summary", { hasText: question }).click();
    await expect(page.getByText("Answered without scripts.")).toBeVisible();

    await page.goto("/videos");
    const card = page.locator("article", { has: page.getByRole("heading", { name: title }) });
    await expect(card.getByRole("link", { name: "Watch it on Vimeo" })).toHaveAttribute(
      "href",
      "https://vimeo.com/76979871",
    );
    await expect(card.locator("iframe")).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("an uploaded video plays in the page, fetched with range requests, and a non-video is refused", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const title = uniqueName("Uploaded clip");
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/videos");
  const webm = await recordWebm(page);
  expect(webm.subarray(0, 4).toString("hex")).toBe("1a45dfa3");

  const form = page.getByRole("region", { name: "Upload a video file" });
  await form.getByLabel("Title (English)").fill("Not a video");
  await form.getByLabel("Video file (MP4 or WebM)").setInputFiles({
    name: "clip.webm",
    mimeType: "video/webm",
    buffer: Buffer.from("this is text pretending to be a video"),
  });
  await form.getByRole("button", { name: "Upload" }).click();
  const refusal = "This file is not an MP4 or WebM video. Nothing was saved.";
  await expect(toast(page, refusal)).toBeVisible();
  // Also on the file field, for whoever missed the toast (a screen reader hears it with the field).
  const videoFile = form.getByLabel("Video file (MP4 or WebM)");
  await expect(videoFile).toHaveAttribute("aria-invalid", "true");
  await expect(videoFile).toHaveAccessibleDescription(new RegExp(refusal.replace(/\./g, "\\.")));

  await form.getByLabel("Title (English)").fill(title);
  await form
    .getByLabel("Video file (MP4 or WebM)")
    .setInputFiles({ name: "clip.webm", mimeType: "video/webm", buffer: webm });
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText(`“${title}” was added.`)).toBeVisible();
  await expect(videoFile).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("list", { name: "Videos in display order" }).getByText(title)).toBeVisible();
  await expect(page.getByText("Not a video")).toHaveCount(0);

  const mediaResponses: { status: number; range: string | undefined }[] = [];
  page.on("response", async (response) => {
    if (new URL(response.url()).pathname.startsWith("/media/videos/")) {
      mediaResponses.push({
        status: response.status(),
        range: (await response.request().headerValue("range")) ?? undefined,
      });
    }
  });
  await page.goto("/videos");
  const video = page.locator("article", { has: page.getByRole("heading", { name: title }) }).locator("video");
  await expect(video).toHaveAttribute("preload", "metadata");
  await expect(video).toHaveAttribute("controls", "");
  const played = await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
    await new Promise((resolve) => setTimeout(resolve, 600));
    return element.currentTime;
  });
  expect(played).toBeGreaterThan(0);
  expect(mediaResponses.some((response) => response.status === 206 && response.range?.startsWith("bytes="))).toBe(true);
});

/** One link, one question and one video, so every page and screen has content. */
async function seedContent(db: Kysely<Database>, actor: { id: string; email: string }) {
  await linksService.create(db, actor, {
    title: uniqueName("Axe link"),
    url: "https://example.com",
    icon: "rss",
    active: "on",
  });
  await faqService.create(db, actor, {
    question: uniqueName("Axe question"),
    answer: "An answer with a [link](https://example.com) and a list:\n\n- one\n- two",
    active: "on",
  });
  await videosService.create(db, actor, {
    title: uniqueName("Axe video"),
    description: "A description.",
    embed_url: "https://youtu.be/dQw4w9WgXcQ",
    active: "on",
  });
}

for (const theme of ["light", "dark"] as const) {
  test.describe(`axe-core with content, ${theme} theme`, () => {
    // Several full axe runs per test on a shared two-core machine.
    test.slow();

    test("the public content pages have no violations", async ({ page, makeUser, database }) => {
      await setPreferences(page, { theme });
      const admin = await makeUser({ admin: true });
      await seedContent(database.db, admin);
      for (const path of ["/links", "/faq", "/videos"]) {
        await page.goto(path);
        await expect(page.locator("html")).toHaveClass(theme);
        // Open a question so its answer is checked too.
        if (path === "/faq") await page.getByRole("main").locator("summary").first().click();
        await expect(page.getByRole("main").locator("li, article").first()).toBeVisible();
        await expectNoViolations(page, `${path} (${theme})`);
      }

      // The start page's highlights (pictures are checked in the integration test: the gallery's own browser
      // tests expect an empty gallery in this shared database).
      await page.goto("/home");
      await expect(page.getByRole("region", { name: "Latest video" })).toBeVisible();
      await expect(page.getByRole("region", { name: "Find me elsewhere" })).toBeVisible();
      await expectNoViolations(page, `/home (${theme})`);
    });

    test("the links, FAQ and video admin screens with an open editor have no violations", async ({
      page,
      makeUser,
      signInAs,
      database,
    }) => {
      await setPreferences(page, { theme });
      const admin = await makeUser({ admin: true });
      await signInAs(page, admin);
      await seedContent(database.db, admin);
      for (const path of ["/admin/links", "/admin/faq", "/admin/videos"]) {
        await page.goto(path);
        await waitForHydration(page);
        await expect(page.getByRole("button", { name: /^Move “.*” down$/ }).first()).toBeVisible();
        await page
          .getByRole("button", { name: /^Edit “/ })
          .first()
          .click();
        await expectNoViolations(page, `${path} with an open editor (${theme})`);
      }
    });
  });
}
