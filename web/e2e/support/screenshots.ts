import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

/** artifacts/screenshots/ (git-ignored), or the folder in SCREENSHOT_DIR (e.g. one per review pass under /tmp). */
export const SCREENSHOT_DIR =
  process.env.SCREENSHOT_DIR || fileURLToPath(new URL("../../../artifacts/screenshots/", import.meta.url));

/** Saves a full-page screenshot as <SCREENSHOT_DIR>/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    animations: "disabled",
  });
}
