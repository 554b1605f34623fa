import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

export const SCREENSHOT_DIR = fileURLToPath(new URL("../../../artifacts/screenshots/", import.meta.url));

/** Saves a full-page screenshot as artifacts/screenshots/<name>.png (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    animations: "disabled",
  });
}
