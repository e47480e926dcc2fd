import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/**
 * Runs axe-core on the page once its toasts have faded in and its finite animations and transitions are over, and
 * expects no violation at all.
 * Mid-fade a toast's colours are not yet its own: axe measured a success toast's contrast at 4.05 while it faded in.
 */
export async function expectNoViolations(page: Page, label: string) {
  // A toast leaves by itself after a few seconds; one that fades out while axe runs (slow on a loaded machine)
  // is measured half transparent. Sonner holds its toasts while the pointer is over them: hover the first one
  // shown for the run, and move away afterwards so that they leave as usual.
  const shownToast = page.locator("[data-sonner-toast][data-removed='false']").first();
  const holdToasts =
    (await shownToast.count()) > 0 &&
    (await shownToast.hover({ timeout: 2_000 }).then(
      () => true,
      () => false,
    ));
  await page.waitForFunction(() => {
    // A toast just mounted has not begun its fade yet (no transition to see): wait for its own full opacity. One
    // that is leaving fades out before it is unmounted, and axe measured its title half transparent (1.23 on a
    // dark error toast): wait until it is gone. Behind the front toast, a stacked one's parts are either hidden
    // (opacity 0, which axe passes over) or, once expanded, fully shown.
    const settled = (element: Element) => ["0", "1"].includes(getComputedStyle(element).opacity);
    const toastsShown = [...document.querySelectorAll<HTMLElement>("[data-sonner-toast]")].every(
      (toast) =>
        toast.dataset.removed !== "true" &&
        (toast.dataset.visible === "false" ||
          (toast.dataset.mounted === "true" &&
            getComputedStyle(toast).opacity === "1" &&
            [...toast.children].every(settled))),
    );
    const animationsOver = document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== "running" ||
          animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
      );
    return toastsShown && animationsOver;
  });
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  // By default @axe-core/playwright opens a blank page to put each frame's results together: 1.05 s a run on a
  // small page, against 0.44 s for axe's own run in the page (tmp bench, 18 runs each, interleaved). A page without
  // frames has nothing to put together; one with a frame (a mail's preview) keeps the default, which tests the frame.
  if (page.frames().length === 1) builder.setLegacyMode(true);
  const results = await builder.analyze();
  const report = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({ target: node.target.join(" "), summary: node.failureSummary })),
  }));
  if (holdToasts) await page.mouse.move(0, 0);
  expect(report, `axe violations on ${label}`).toEqual([]);
}
