import type { Locator, Page } from "playwright-core";

/** A form field by its visible label (MUI adds " *" to required labels). */
export function field(page: Page, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page.getByLabel(new RegExp(`^${escaped}(\\s*\\*)?$`));
}
