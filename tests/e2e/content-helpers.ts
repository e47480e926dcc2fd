import type { Page } from "@playwright/test";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import { idOfAccepted, testAdmin } from "#tests/support/service-actor.ts";
import { expect, waitForHydration } from "./fixtures.ts";

/** A name no other test uses, so tests sharing the server's database can find their own items. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Fills the screen's "add" form (fields by label) and waits for the confirmation toast. */
export async function addInAdmin(page: Page, section: string, fields: Record<string, string>, name: string) {
  const form = page.getByRole("region", { name: section });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole("button", { name: "Add" }).click();
  await expect(page.getByText(`“${name}” was added.`)).toBeVisible();
}

/** Expects both names in the page's main text, `first` before `second`. */
export async function expectInPageOrder(page: Page, [first, second]: [string, string]) {
  const text = await page.getByRole("main").innerText();
  const firstAt = text.indexOf(first);
  expect(firstAt).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(second)).toBeGreaterThan(firstAt);
}

/** Opens the admin screen, hides the item with the given name and waits for the confirmation. */
export async function hideInAdmin(page: Page, adminPath: string, name: string) {
  await page.goto(adminPath);
  await waitForHydration(page);
  await page.getByRole("button", { name: `Hide “${name}”` }).click();
  await expect(page.getByText(`“${name}” is now hidden.`)).toBeVisible();
  // The row says so in the gallery's words, and its button now publishes it again.
  await expect(page.getByRole("button", { name: `Publish “${name}”` })).toBeVisible();
}

/**
 * A real, playable WebM video of about a second, recorded in the browser from an animated canvas (the
 * machine has no video tools, and a fixture file would be an opaque binary in the repository).
 */
export async function recordWebm(page: Page): Promise<Buffer> {
  const bytes = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 320;
    canvas.height = 180;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no 2d context");
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: "video/webm;codecs=vp8" });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => {
      recorder.onstop = resolve;
    });
    recorder.start();
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const draw = () => {
        const elapsed = performance.now() - started;
        context.fillStyle = `hsl(${(elapsed / 4) % 360} 70% 50%)`;
        context.fillRect(0, 0, 320, 180);
        context.fillStyle = "white";
        context.fillRect((elapsed / 5) % 320, 80, 20, 20);
        if (elapsed > 1500) resolve();
        else requestAnimationFrame(draw);
      };
      draw();
    });
    recorder.stop();
    await stopped;
    return Array.from(new Uint8Array(await new Blob(chunks).arrayBuffer()));
  });
  return Buffer.from(bytes);
}

/**
 * Makes sure the links, FAQ and videos pages each have a published entry, so that the main menu offers all
 * five pages (an empty content page leaves the menu): for the tests that walk the menu in the shared database.
 */
export async function publishInEveryMenuSection(db: Kysely<Database>) {
  const published = async (table: "links" | "faq_entries" | "videos") =>
    (await db.selectFrom(table).select("id").where("active", "=", true).limit(1).executeTakeFirst()) !== undefined;
  const name = uniqueName("Menu entry");
  if (!(await published("links"))) {
    idOfAccepted(
      await linksService.create(db, testAdmin, {
        title: name,
        title_de: name,
        url: "https://example.com/",
        icon: "globe",
        active: "true",
      }),
    );
  }
  if (!(await published("faq_entries"))) {
    idOfAccepted(
      await faqService.create(db, testAdmin, {
        question: `${name}?`,
        question_de: `${name}?`,
        answer: "An answer.",
        answer_de: "Eine Antwort.",
        active: "true",
      }),
    );
  }
  if (!(await published("videos"))) {
    idOfAccepted(
      await videosService.create(db, testAdmin, {
        title: name,
        title_de: name,
        description: "",
        description_de: "",
        embed_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
        active: "true",
      }),
    );
  }
}
