import type { Page } from "playwright-core";
import { expectAccessible } from "./axe";
import { screenshot } from "./screenshots";

/** Screenshot + axe check of the current screen, named <screen>-<theme>. */
export async function checkScreen(page: Page, screen: string, theme: "light" | "dark"): Promise<void> {
  await screenshot(page, `${screen}-${theme}`);
  await expectAccessible(page, `${screen} (${theme})`);
}
