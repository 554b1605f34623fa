import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type axe from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/**
 * axe-core's minified build: the same code as the package's `source` (axe.js, 1.5 MB), 0.65 MB to send to and
 * parse in every document that is checked.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** WCAG 2.0 and 2.1, levels A and AA */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A/AA rules) on the current page and fails on any serious or critical violation,
 * listing each with the offending elements.
 *
 * axe runs inside the page (`axe.run`, violations only): @axe-core/playwright's AxeBuilder injected axe into every
 * frame and ran it per frame with `runPartial`/`finishRun` and serialised every rule's passes too, ~4× the time
 * on the walks' screens. The app has no iframes, so nothing is missed.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Colours are final once no transition is running (a spinner's endless animation does not count).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
  );
  const violations = await axeViolations(page);
  const bad = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.targets.slice(0, 5).join("\n    ")}`);
  expect(bad, `axe violations on ${label}`).toEqual([]);
}

/** axe's violations on the page as it is now (axe injected once per document). */
async function axeViolations(page: Page): Promise<Violation[]> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  }, AXE_TAGS);
}
