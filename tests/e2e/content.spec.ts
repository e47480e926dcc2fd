import type { Page } from "@playwright/test";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import { pngPicture } from "#tests/support/media-fixtures.ts";
import { openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { addInAdmin, expectInPageOrder, hideInAdmin, recordWebm, uniqueName } from "./content-helpers.ts";
import { E2E_BASE_URL, expect, setPreferences, test, waitForHydration, waitForQuiet } from "./fixtures.ts";

// One admin edits what the public pages show; the steps of a test depend on each other's order.
test.describe.configure({ mode: "serial" });

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

test("a mail link added in the admin screen opens the visitor's mail program from /links, not a new tab", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const name = uniqueName("Write to me");
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/links");
  await addInAdmin(
    page,
    "Add a link",
    { "Title (English)": name, "Address (URL)": "mailto:lena@example.com", Icon: "mail" },
    name,
  );

  await page.goto("/links");
  await waitForHydration(page);
  const link = page.getByRole("link", { name });
  await expect(link).toHaveAttribute("href", "mailto:lena@example.com");
  await expect(link).not.toHaveAttribute("target", /.*/);
  await expect(link).not.toHaveAttribute("rel", /.*/);
  // The icon drawn on the server is the mail icon (lucide's class names it).
  await expect(link.locator("svg").first()).toHaveClass(/lucide-mail/);

  // The page's live connection opens once it has settled (CI once saw its request after the click): up first, so
  // that what is recorded is what the click causes.
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected", { timeout: 15_000 });
  // A click hands the address to the mail program: the browser stays on this page, nothing is fetched.
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  const handedOver = page.evaluate(
    () =>
      new Promise<string>((resolve) =>
        document.addEventListener("click", (event) => {
          const anchor = (event.target as Element).closest("a");
          resolve(anchor && !event.defaultPrevented ? anchor.href : "");
        }),
      ),
  );
  await link.click();
  expect(await handedOver).toBe("mailto:lena@example.com");
  expect(new URL(page.url()).pathname).toBe("/links");
  expect(requests.filter((url) => url.startsWith(E2E_BASE_URL))).toEqual([]);
});

test("a link typed without https:// is offered completed; the button fills it in, and the saved link works", async ({
  page,
  makeUser,
  signInAs,
}) => {
  // An axe run over the admin screen.
  test.slow();
  const name = uniqueName("My shop");
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/links");
  const form = page.getByRole("region", { name: "Add a link" });
  await form.getByLabel("Title (English)", { exact: true }).fill(name);
  const address = form.getByLabel("Address (URL)", { exact: true });
  await address.fill("shop.example.com/new");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(
    form.getByText("This address lacks its beginning. Did you mean https://shop.example.com/new?"),
  ).toBeVisible();
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expectNoViolations(page, "/admin/links with an address offered completed");
  await form.getByRole("button", { name: "Use https://shop.example.com/new" }).click();
  await expect(address).toHaveValue("https://shop.example.com/new");
  await expect(address).toBeFocused();
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.getByText(`“${name}” was added.`)).toBeVisible();

  await page.goto("/links");
  await expect(page.getByRole("link", { name: new RegExp(name) })).toHaveAttribute(
    "href",
    "https://shop.example.com/new",
  );
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
  await waitForQuiet(page);
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

/**
 * Slows the page's uploads (Chromium's own network throttling, through one DevTools session kept for the page),
 * so that a progress bar can be watched and an upload cancelled halfway on a machine where a local upload
 * takes no time.
 */
async function uploadThrottle(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  return (bytesPerSecond: number) =>
    cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
}

/** Records every value the page's upload progress bar takes, as the owner sees it. */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      const value = bar?.getAttribute("aria-valuenow");
      if (value && seen.at(-1) !== value) seen.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen.map(Number));
}

test("a video upload shows its progress in per cent up to 100 %, and Cancel stops one halfway, saving nothing", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  // Uploads slowed down on purpose, on a shared two-core machine.
  test.slow();
  const title = uniqueName("Progress clip");
  const cancelled = uniqueName("Cancelled clip");
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/videos");
  const webm = await recordWebm(page);
  const form = page.getByRole("region", { name: "Upload a video file" });
  const bar = form.getByRole("progressbar", { name: "Upload of the video" });
  const throttleUploads = await uploadThrottle(page);
  await throttleUploads(512 * 1024);

  // Two megabytes at 512 kB/s: the bar climbs in steps, says its percentage, and ends at 100 %.
  const progress = await recordProgress(page);
  await form.getByLabel("Title (English)").fill(title);
  await form.getByLabel("Video file (MP4 or WebM)").setInputFiles({
    name: "clip.webm",
    mimeType: "video/webm",
    buffer: Buffer.concat([webm, Buffer.alloc(2 * 1024 * 1024)]),
  });
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
  // The percentage written beside the bar is the bar's value (read together, while it moves).
  const [value, written] = await bar.evaluate((element) => [
    element.getAttribute("aria-valuenow"),
    element.nextElementSibling?.textContent,
  ]);
  expect(written).toBe(`${value} %`);
  await expect(page.getByText(`“${title}” was added.`)).toBeVisible();
  // The finished upload keeps its full bar until the next one.
  await expect(bar).toHaveAttribute("aria-valuenow", "100");
  await expect(form.getByText("100 %", { exact: true })).toBeVisible();
  await expect(form.getByText("Upload complete.")).toBeVisible();
  const values = await progress();
  expect(values.at(-1)).toBe(100);
  expect(values.some((value) => value > 0 && value < 100)).toBe(true);
  expect(values).toEqual([...values].sort((a, b) => a - b));
  const list = page.getByRole("list", { name: "Videos in display order" });
  await expect(list.getByText(title)).toBeVisible();

  // A larger one, cancelled while it is sent: the owner is told, and the list stays as it was.
  const rowsBefore = await list.getByRole("listitem").count();
  await throttleUploads(32 * 1024);
  await form.getByLabel("Title (English)").fill(cancelled);
  await form.getByLabel("Video file (MP4 or WebM)").setInputFiles({
    name: "long.webm",
    mimeType: "video/webm",
    buffer: Buffer.concat([webm, Buffer.alloc(3 * 1024 * 1024)]),
  });
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(form.getByText("Upload complete.")).toHaveCount(0);
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
  expect(Number(await bar.getAttribute("aria-valuenow"))).toBeLessThan(100);
  await expectNoViolations(page, "/admin/videos during an upload");
  await form.getByRole("button", { name: "Cancel upload" }).click();
  await expect(toast(page, "The upload was cancelled. Nothing was saved.")).toBeVisible();
  await expect(bar).toHaveCount(0);
  await expect(form.getByRole("button", { name: "Upload" })).toBeEnabled();
  await expect(form.getByRole("button", { name: "Cancel upload" })).toHaveCount(0);
  await page.reload();
  await expect(list.getByRole("listitem")).toHaveCount(rowsBefore);
  await expect(page.getByText(cancelled)).toHaveCount(0);
  const rows = await database.db.selectFrom("videos").select("title").where("title", "=", cancelled).execute();
  expect(rows).toEqual([]);
});

test("a YouTube entry takes an uploaded poster, shown on /videos without contacting YouTube, and loses it again", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  // Four full axe runs on a shared two-core machine.
  test.slow();
  const admin = await makeUser({ admin: true });
  const title = uniqueName("Poster video");
  await videosService.create(database.db, admin, {
    title,
    embed_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    active: "on",
  });
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== E2E_BASE_URL) foreign.push(request.url());
  });
  const card = page.locator("article", { has: page.getByRole("heading", { name: title }) });

  // Without a poster, the box shows the video's title, so entries differ.
  await page.goto("/videos");
  await expect(card.locator(".aspect-video").getByText(title, { exact: true })).toBeVisible();
  await expect(card.locator("img")).toHaveCount(0);

  await signInAs(page, admin);
  await page.goto("/admin/videos");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Edit “${title}”` }).click();
  await expect(page.getByText("No poster yet")).toBeVisible();
  await page.getByLabel("New poster image").setInputFiles({
    name: "poster.png",
    mimeType: "image/png",
    buffer: await pngPicture(1280, 720),
  });
  await page.getByRole("button", { name: "Upload poster" }).click();
  await expect(toast(page, `The poster of “${title}” was saved.`)).toBeVisible();
  await expect(page.getByRole("img", { name: `Poster of “${title}”` }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Replace poster" })).toBeVisible();

  await page.goto("/videos");
  await waitForHydration(page);
  await waitForQuiet(page);
  const poster = card.locator("img");
  await expect(poster).toHaveAttribute("src", /^\/media\/images\//);
  await expect(poster).toHaveAttribute("width", "1280");
  await expect(poster).toHaveAttribute("height", "720");
  await expect(poster).toHaveAttribute("srcset", /\d+w/);
  await expect.poll(() => poster.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expect(card.locator(".aspect-video").getByText(title, { exact: true })).toHaveCount(0);
  await expect(card.locator("iframe")).toHaveCount(0);
  expect(foreign).toEqual([]);
  for (const theme of ["light", "dark"] as const) {
    await setPreferences(page, { theme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/videos");
      await expect(page.locator("html")).toHaveClass(theme);
      await expect(poster).toBeVisible();
      await expectNoViolations(page, `/videos with a poster at ${width} px (${theme})`);
    }
  }

  await page.goto("/admin/videos");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Edit “${title}”` }).click();
  await page.getByRole("button", { name: "Remove poster" }).click();
  await expect(toast(page, `The poster of “${title}” was removed.`)).toBeVisible();
  await expect(page.getByText("No poster yet")).toBeVisible();
  await page.goto("/videos");
  await expect(card.locator("img")).toHaveCount(0);
  await expect(card.locator(".aspect-video").getByText(title, { exact: true })).toBeVisible();
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
      // The video boxes with the title in them, also on a phone.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/videos");
      await expect(page.getByRole("main").locator("article").first()).toBeVisible();
      await expectNoViolations(page, `/videos at 390 px (${theme})`);
      await page.setViewportSize({ width: 1280, height: 900 });

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
      for (const [path, width] of [
        ["/admin/links", 1280],
        ["/admin/faq", 1280],
        ["/admin/videos", 1280],
        ["/admin/videos", 390],
      ] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await waitForHydration(page);
        await expect(page.getByRole("button", { name: /^Move “.*” down$/ }).first()).toBeVisible();
        await page
          .getByRole("button", { name: /^Edit “/ })
          .first()
          .click();
        await expectNoViolations(page, `${path} at ${width} px with an open editor (${theme})`);
      }
    });
  });
}
