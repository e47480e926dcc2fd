import type { Page } from "@playwright/test";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import type { AdminPost, PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { startPausingRelay } from "#tests/support/pausing-relay.ts";
import { expectNoViolations } from "./axe.ts";
import { E2E_BASE_URL, expect, setPreferences, test, waitForHydration, waitForQuiet } from "./fixtures.ts";

// A post's Share button and the copy buttons of its code blocks. The posts are back-dated to 2000, so they
// never take another spec's place on the blog's first page.
test.describe.configure({ mode: "serial" });

function accepted(result: PostWriteResult): AdminPost {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const TS_CODE =
  'const answer: number = 42;\nfunction greet(name: string) {\n  return "Hello, " + name + " <3 & more";\n}';
const SHELL_CODE = "npm start\n  # then open http://localhost:3000";

let withCode: AdminPost | undefined;
let withoutCode: AdminPost | undefined;

test.beforeEach(async ({ database, makeUser }) => {
  if (withCode && withoutCode) return;
  const admin = await makeUser({ admin: true });
  const actor = { id: admin.id, email: admin.email };
  const publish = async (fields: Record<string, unknown>) => {
    const post = accepted(await createPost(database.db, actor, { tags: `share-${run}`, ...fields }));
    return accepted(
      await setPostStatus(database.db, actor, post.id, { status: "published", publishAt: "2000-01-01T10:00:00Z" }),
    );
  };
  withCode = await publish({
    title: `Code ${run}`,
    title_de: `Quelltext ${run}`,
    body: ["Some code:", `\`\`\`ts\n${TS_CODE}\n\`\`\``, "And a command:", `\`\`\`sh\n${SHELL_CODE}\n\`\`\``].join(
      "\n\n",
    ),
  });
  withoutCode = await publish({ title: `Prose ${run}`, body: "Only words, and `inline code`, no block." });
});

const post = (which: AdminPost | undefined) => {
  if (!which) throw new Error("no post");
  return which;
};

async function openPost(page: Page, slug: string) {
  await page.goto(`/blog/${slug}`);
  await waitForHydration(page);
}

test("each code block gets a copy button that copies exactly its code, by click or keyboard, and says so", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_BASE_URL });
  await openPost(page, post(withCode).slug);
  const buttons = page.getByRole("button", { name: "Copy the code" });
  await expect(buttons).toHaveCount(2);
  await expect(buttons.first()).toHaveText("Copy");

  const first = page.locator(".code-copy").first();
  await buttons.first().click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(1);
  await expect(first).toHaveText("Copied");
  await expect(first).toHaveAccessibleName("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(TS_CODE);
  // The button offers to copy again after a moment.
  await expect(first).toHaveText("Copy");
  await expect(first).toHaveAccessibleName("Copy the code");

  // The keyboard reaches it (after the first block, which scrolls, and its own button) and Enter copies.
  await buttons.first().focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(buttons.nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator(".code-copy").nth(1)).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(SHELL_CODE);
});

test("the copy buttons' code loads only on a post with code, and without JavaScript there is no button", async ({
  page,
  browser,
}) => {
  const scripts: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(response.text());
  });
  // A class name only the copy buttons' module has.
  const copyCodeLoaded = async () => (await Promise.all(scripts)).some((body) => body.includes("code-block"));
  await openPost(page, post(withoutCode).slug);
  await waitForQuiet(page);
  expect(await copyCodeLoaded()).toBe(false);
  await openPost(page, post(withCode).slug);
  await expect(page.getByRole("button", { name: "Copy the code" })).toHaveCount(2);
  expect(await copyCodeLoaded()).toBe(true);

  const plain = await browser.newContext({ javaScriptEnabled: false });
  try {
    const noScript = await plain.newPage();
    await noScript.goto(`${E2E_BASE_URL}/blog/${post(withCode).slug}`);
    await expect(noScript.locator("pre.shiki")).toHaveCount(2);
    // No control in the post that could not work (the header's theme and language switches are forms).
    await expect(noScript.locator("article").getByRole("button")).toHaveCount(0);
    await expect(noScript.getByRole("button", { name: /copy|share/i })).toHaveCount(0);
  } finally {
    await plain.close();
  }
});

test("without a share sheet a post's link is copied, in the visitor's language, and said so", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_BASE_URL });
  const shown = post(withCode);
  await openPost(page, shown.slug);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E_BASE_URL}/blog/${shown.slug}`);

  await setPreferences(page, { lang: "de" });
  await openPost(page, shown.slugDe);
  await page.getByRole("button", { name: "Link kopieren" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link kopiert" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${E2E_BASE_URL}/blog/${shown.slugDe}?lang=de`,
  );
});

test("with the browser's share sheet, Share hands it the post's title and address", async ({ page }) => {
  await page.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.assign(window, { sharedData: shared });
    Object.defineProperty(navigator, "share", {
      value: async (data: ShareData) => {
        shared.push(data);
      },
    });
  });
  const shown = post(withCode);
  await openPost(page, shown.slug);
  await page.getByRole("button", { name: "Share" }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { sharedData: ShareData[] }).sharedData))
    .toEqual([{ title: shown.title, url: `${E2E_BASE_URL}/blog/${shown.slug}` }]);
});

for (const theme of ["light", "dark"] as const) {
  test(`axe finds nothing on a post with code, its copy buttons and Share (${theme})`, async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_BASE_URL });
    await setPreferences(page, { theme });
    await openPost(page, post(withCode).slug);
    await expect(page.getByRole("button", { name: "Copy the code" })).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
    await expectNoViolations(page, `a post with code (${theme})`);
    await page.getByRole("button", { name: "Copy the code" }).first().click();
    await page.getByRole("button", { name: "Copy link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
    await expectNoViolations(page, `a post with code, copied (${theme})`);
  });
}

/**
 * Keeps every layout shift from the first paint on, each with what moved (an element, from where to where), so that a
 * failure says what it was.
 */
async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
    const at = (rect: DOMRectReadOnly) =>
      `${Math.round(rect.width)}×${Math.round(rect.height)} at ${Math.round(rect.x)},${Math.round(rect.y)}`;
    const shifts: { value: number; moved: string[] }[] = [];
    (window as unknown as { shifts: typeof shifts }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const shift = entry as unknown as { value: number; sources: Source[] };
        shifts.push({
          value: shift.value,
          moved: shift.sources.map((source) => {
            const node = source.node instanceof Element ? `${source.node.nodeName}.${source.node.className}` : "?";
            return `${node}: ${at(source.previousRect)} → ${at(source.currentRect)}`;
          }),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

const shiftsOn = (page: Page) => page.evaluate(() => (window as unknown as { shifts: unknown[] }).shifts);

test.describe("on a phone", () => {
  test.use({ viewport: { width: 412, height: 823 } });

  test("nothing on a post moves as it loads: the Share button and the copy buttons come into room kept for them", async ({
    page,
  }) => {
    // Lighthouse counted 0.025 on a post: the Share row appeared above the text once the page was hydrated, and
    // pushed it down.
    await watchShifts(page);
    await openPost(page, post(withCode).slug);
    await expect(page.getByRole("button", { name: "Copy the code" })).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
    expect(await shiftsOn(page)).toEqual([]);
  });

  test("a post that arrives in parts is painted once its header is whole: nothing in the header moves", async ({
    page,
  }) => {
    // A busy CI's browser painted the header before its last buttons were read, then moved the first ones aside
    // (0.0016). Here the line stalls for a second in the middle of the header, before the menu button.
    const path = `/blog/${post(withCode).slug}`;
    const relay = await startPausingRelay(E2E_BASE_URL, { path, splitBefore: "<details", pauseMs: 1000 });
    try {
      await watchShifts(page);
      await page.goto(`${relay.origin}${path}`);
      await waitForHydration(page);
      await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
      await expect(page.locator("summary")).toBeVisible();
      expect(await shiftsOn(page)).toEqual([]);
    } finally {
      await relay.close();
    }
  });
});
