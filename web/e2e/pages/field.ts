import type { Locator, Page } from "playwright-core";

/** A form field by its visible label, in any of the given wordings (MUI adds " *" to required labels). */
export function field(page: Page, ...labels: string[]): Locator {
  const escaped = labels.map((label) => label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return page.getByLabel(new RegExp(`^(?:${escaped.join("|")})(\\s*\\*)?$`));
}
