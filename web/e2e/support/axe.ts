import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Runs axe-core (WCAG 2.x A/AA rules) on the current page and fails on any serious or critical violation,
 * listing each with the offending elements.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Colours are final once no transition is running (a spinner's endless animation does not count).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
  );
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const bad = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 5)
          .join("\n    ")}`,
    );
  expect(bad, `axe violations on ${label}`).toEqual([]);
}
