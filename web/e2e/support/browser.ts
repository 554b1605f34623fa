import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterEach } from "vitest";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Debian's "old headless" shell (package `chromium-headless-shell`, what Playwright itself runs for headless), or
 * the full browser (`chromium`) when the shell is not installed; `E2E_CHROMIUM` names another binary. The shell
 * renders with the same engine without the browser's UI layers: the same files took 12–22 % less CPU
 * (chat.test.ts 124 → 96 s, chat-paging 58 → 51 s, process tree with renderers).
 */
export const CHROMIUM_PATH =
  process.env.E2E_CHROMIUM ??
  ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ??
  "/usr/bin/chromium";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export interface ContextOptions {
  baseURL: string;
  /** preference stored on the device before the first page loads (signed-out screens use it) */
  theme?: "light" | "dark";
  language?: "da" | "en";
  width?: number;
  height?: number;
}

/** A fresh browser context (own storage, own cookies) for one simulated user. */
export async function newContext(browser: Browser, opts: ContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: opts.baseURL,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 860 },
    locale: "da-DK",
    timezoneId: "Europe/Copenhagen",
    reducedMotion: "reduce",
  });
  context.setDefaultTimeout(20_000);
  if (opts.theme || opts.language) {
    const prefs = JSON.stringify({
      theme: opts.theme ?? "light",
      language: opts.language ?? "da",
      notifications: true,
    });
    await context.addInitScript((value: string) => {
      if (!localStorage.getItem("vidensbank_ui_preferences"))
        localStorage.setItem("vidensbank_ui_preferences", value);
    }, prefs);
  }
  return context;
}

/** The body's background in each theme (getComputedStyle; public-screens.test.ts pins the two palettes). */
export const BODY_BACKGROUND = { light: "rgb(243, 245, 249)", dark: "rgb(14, 19, 26)" } as const;

/** The page's computed body background colour, e.g. "rgb(243, 245, 249)". */
export function bodyBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

/**
 * Closes the contexts a test opened (those in `contexts`) when it ends, not with the file: a page left open keeps
 * rendering for the rest of the file (a spinner, a held request's loading state, a chart's transition, the
 * caret), and the idle pages of earlier tests cost a file up to a third of its CPU (chat-paging: 116 → 80 s).
 */
export function closeAfterEach(contexts: BrowserContext[]): void {
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });
}
