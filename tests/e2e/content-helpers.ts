import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** Runs axe-core on the page as it is now and expects no violation at all. */
export async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const report = results.violations.map((violation) => ({
    rule: violation.id,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({ target: node.target.join(" "), summary: node.failureSummary })),
  }));
  expect(report, `axe violations on ${label}`).toEqual([]);
}

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

/** The positions of the names in the page's main text (-1 when absent). */
export async function positionsIn(page: Page, names: string[]): Promise<number[]> {
  const text = await page.getByRole("main").innerText();
  return names.map((name) => text.indexOf(name));
}
